import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as contracts from '@tollgate/contracts';
import { compileRouteTable, type ApiProtocol } from '@tollgate/contracts';
import ts from 'typescript';
import { ZodType } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One public endpoint as the fuzzer calls it through the gateway. */
export interface FuzzRoute {
  method: HttpMethod;
  /** With `:name` path parameters, or `*` for a wildcard. */
  path: string;
  /** `api` answers the new-api envelope; the others answer in that protocol's error shape. */
  dialect: 'api' | ApiProtocol;
  body?: ZodType;
  query?: ZodType;
  params?: ZodType;
  /** Where the route was found, for the failure report. */
  source: string;
}

const REPO_ROOT = join(__dirname, '..');
const HTTP_DECORATORS: Record<string, HttpMethod> = {
  Get: 'GET',
  Post: 'POST',
  Put: 'PUT',
  Patch: 'PATCH',
  Delete: 'DELETE',
};
const publicRoutes = compileRouteTable();

/** Inputs a controller hands to its service unparsed, with the contracts' schema the service parses them with. */
const PARSED_IN_SERVICES: Record<string, Pick<FuzzRoute, 'body' | 'query'>> = {
  'POST /api/user/register': { body: contracts.registerRequestSchema },
  'POST /api/user/login': { body: contracts.loginRequestSchema },
  'GET /api/verification': { query: contracts.verificationQuerySchema },
  'GET /api/reset_password': { query: contracts.resetPasswordQuerySchema },
  'POST /api/user/reset': { body: contracts.passwordResetRequestSchema },
  'PUT /api/user/self': { body: contracts.updateSelfRequestSchema },
  'PUT /api/user/setting': { body: contracts.updateSettingRequestSchema },
  'POST /api/user': { body: contracts.createUserRequestSchema },
  'PUT /api/user': { body: contracts.updateUserRequestSchema },
  'POST /api/user/manage': { body: contracts.manageUserRequestSchema },
  'GET /api/user': { query: contracts.userFilterQuerySchema },
  'GET /api/user/search': { query: contracts.userSearchQuerySchema },
  'GET /api/oauth/state': { query: contracts.oauthStateQuerySchema },
  'POST /api/token': { body: contracts.createTokenRequestSchema },
  'PUT /api/token': { body: contracts.updateTokenRequestSchema },
  'GET /api/token/search': { query: contracts.tokenSearchQuerySchema },
};
const contractExports = contracts as unknown as Record<string, unknown>;

/**
 * Every public /api endpoint, read from the services' Nest controllers (the routes the services
 * really register, so a new endpoint is fuzzed without being listed anywhere) and kept when the
 * contracts' route table sends it to a service. A body, query or params schema is attached where
 * the controller parses that input with a schema exported by @tollgate/contracts.
 */
export function apiRoutes(): FuzzRoute[] {
  const routes: FuzzRoute[] = [];
  for (const file of controllerFiles(join(REPO_ROOT, 'apps'))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    source.forEachChild((node) => {
      if (!ts.isClassDeclaration(node)) return;
      const prefix = decoratorPath(node, 'Controller');
      if (prefix === undefined) return;
      for (const member of node.members) {
        if (!ts.isMethodDeclaration(member)) continue;
        for (const [decorator, method] of Object.entries(HTTP_DECORATORS)) {
          const path = decoratorPath(member, decorator);
          if (path === undefined) continue;
          const full = `/${[prefix, path].filter(Boolean).join('/')}`.replace(/\/+/g, '/');
          if (!publicRoutes.match(full) || full.startsWith('/v1')) continue;
          routes.push({
            method,
            path: full,
            dialect: 'api',
            ...parsedInputs(member),
            ...PARSED_IN_SERVICES[`${method} ${full}`],
            source: `${relative(REPO_ROOT, file)}#${member.name.getText()}`,
          });
        }
      }
    });
  }
  return routes;
}

/**
 * The relay's /v1 and /v1beta endpoints (apps/relay/src/http/v1-routes.ts registers them on Fastify
 * directly). `v1RoutePathsInSource` keeps this list honest: every path that file names is here.
 */
export function v1Routes(): FuzzRoute[] {
  const source = 'apps/relay/src/http/v1-routes.ts';
  const openai = (method: HttpMethod, path: string): FuzzRoute => ({
    method,
    path,
    dialect: 'openai',
    source,
  });
  return [
    openai('POST', '/v1/chat/completions'),
    { method: 'POST', path: '/v1/messages', dialect: 'anthropic', source },
    { method: 'POST', path: '/v1/messages/count_tokens', dialect: 'anthropic', source },
    { method: 'POST', path: '/v1beta/models/*', dialect: 'gemini', source },
    { method: 'GET', path: '/v1beta/models', dialect: 'gemini', source },
    { method: 'GET', path: '/v1beta/models/*', dialect: 'gemini', source },
    openai('POST', '/v1/completions'),
    openai('POST', '/v1/embeddings'),
    openai('POST', '/v1/responses'),
    openai('POST', '/v1/images/generations'),
    openai('POST', '/v1/audio/speech'),
    openai('POST', '/v1/moderations'),
    openai('POST', '/v1/rerank'),
    openai('POST', '/v1/audio/transcriptions'),
    openai('POST', '/v1/audio/translations'),
    openai('GET', '/v1/key'),
    openai('GET', '/v1/dashboard/billing/subscription'),
    openai('GET', '/v1/dashboard/billing/usage'),
    openai('GET', '/v1/generation'),
    openai('GET', '/v1/models'),
    openai('GET', '/v1/models/*'),
  ];
}

/** The public paths (string literals starting with /v1) that the relay's route file names. */
export function v1RoutePathsInSource(): string[] {
  const file = join(REPO_ROOT, 'apps/relay/src/http/v1-routes.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const paths = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) && /^\/v1(beta)?(\/|$)/.test(node.text) && publicRoutes.match(node.text)) {
      paths.add(node.text);
    }
    node.forEachChild(visit);
  };
  visit(source);
  return [...paths];
}

function controllerFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.controller.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => file.includes(`${join('src', '')}`) && !file.includes('node_modules'));
}

/** The path a Nest decorator names: '' without an argument, undefined when absent or not a path. */
function decoratorPath(node: ts.HasDecorators, name: string): string | undefined {
  for (const decorator of ts.getDecorators(node) ?? []) {
    const call = decorator.expression;
    if (!ts.isCallExpression(call) || call.expression.getText() !== name) continue;
    const [argument] = call.arguments;
    if (argument === undefined) return '';
    if (ts.isStringLiteral(argument)) return argument.text;
    // `@Post(SOME_CALL.path)`: an internal service call from the contracts.
    if (ts.isPropertyAccessExpression(argument) && argument.name.text === 'path') {
      const call = contractExports[argument.expression.getText()] as { path?: unknown } | undefined;
      if (typeof call?.path === 'string') return call.path;
    }
    return undefined;
  }
  return undefined;
}

/** The contracts' schemas a handler parses its @Body, @Query and @Param inputs with. */
function parsedInputs(method: ts.MethodDeclaration): Pick<FuzzRoute, 'body' | 'query' | 'params'> {
  const inputOf = new Map<string, 'body' | 'query' | 'params'>();
  for (const parameter of method.parameters) {
    for (const decorator of ts.getDecorators(parameter) ?? []) {
      const name = ts.isCallExpression(decorator.expression) ? decorator.expression.expression.getText() : '';
      const input = ({ Body: 'body', Query: 'query', Param: 'params' } as const)[name];
      if (input !== undefined) inputOf.set(parameter.name.getText(), input);
    }
  }
  const found: Pick<FuzzRoute, 'body' | 'query' | 'params'> = {};
  const visit = (node: ts.Node): void => {
    const parsed = ts.isCallExpression(node) ? schemaAndInput(node) : undefined;
    if (parsed) {
      const schema = contractExports[parsed.schema];
      // `body ?? {}` and the like parse the body all the same.
      const argument = /^[\w$.]+/.exec(parsed.input)?.[0] ?? '';
      const input = inputOf.get(argument) ?? (argument === 'request.query' ? 'query' : undefined);
      if (schema instanceof ZodType && input !== undefined) found[input] = schema;
    }
    node.forEachChild(visit);
  };
  if (method.body) visit(method.body);
  return found;
}

/** `schema.parse(input)`, `schema.safeParse(input)` or auth's `parseRequest(schema, input, …)`. */
function schemaAndInput(call: ts.CallExpression): { schema: string; input: string } | undefined {
  const callee = call.expression;
  if (ts.isPropertyAccessExpression(callee) && ['parse', 'safeParse'].includes(callee.name.text)) {
    return { schema: callee.expression.getText(), input: call.arguments[0]?.getText() ?? '' };
  }
  if (ts.isIdentifier(callee) && callee.text === 'parseRequest' && call.arguments.length >= 2) {
    return { schema: call.arguments[0]!.getText(), input: call.arguments[1]!.getText() };
  }
  return undefined;
}
