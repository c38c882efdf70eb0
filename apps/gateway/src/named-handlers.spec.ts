import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/**
 * The composition rule (docs/platform.md, "Composition"): what the gateway's scope runs per request is
 * a named function — no anonymous closure registered on the scope or written as a route's handler.
 */

const SCOPE_METHODS = new Set([
  'route',
  'get',
  'post',
  'all',
  'addHook',
  'addContentTypeParser',
  'setErrorHandler',
]);

function isAnonymousFunction(node: ts.Node): boolean {
  return ts.isArrowFunction(node) || (ts.isFunctionExpression(node) && node.name === undefined);
}

/** Anonymous functions passed to `scope.<method>(…)` or given as a route table's `handle`, by line. */
function anonymousHandlers(fileName: string, text: string): number[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const report = (node: ts.Node) =>
    lines.push(source.getLineAndCharacterOfPosition(node.getStart()).line + 1);
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.expression.getText() === 'scope' &&
      SCOPE_METHODS.has(node.expression.name.text)
    ) {
      node.arguments.filter(isAnonymousFunction).forEach(report);
    }
    if (
      ts.isPropertyAssignment(node) &&
      ['handle', 'handler', 'onRequest'].includes(node.name.getText()) &&
      isAnonymousFunction(node.initializer)
    ) {
      report(node.initializer);
    }
    node.forEachChild(visit);
  };
  visit(source);
  return lines;
}

describe('the gateway routes', () => {
  it('registers only named handlers, hooks and parsers', () => {
    for (const file of ['gateway.routes.ts']) {
      expect({ file, lines: anonymousHandlers(file, readFileSync(join(__dirname, file), 'utf8')) }).toEqual({
        file,
        lines: [],
      });
    }
  });

  it('finds an anonymous handler where one is written', () => {
    const violating = [
      "scope.post('/v1/x', (request, reply) => reply.send());",
      "scope.addContentTypeParser('a/b', function (_r, _p, done) { done(null); });",
      "const ROUTES = [{ path: '/v1/y', handle: async (hot) => hot.ping() }];",
      "scope.post('/v1/z', namedHandler);",
    ].join('\n');
    expect(anonymousHandlers('violating.ts', violating)).toEqual([1, 2, 3]);
  });
});
