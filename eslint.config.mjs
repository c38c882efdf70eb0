import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

/** Apps never import apps; web imports only shared libs; only the launcher composes services. */
const depConstraints = [
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:server', onlyDependOnLibsWithTags: ['scope:shared', 'scope:server'] },
  { sourceTag: 'scope:testing', onlyDependOnLibsWithTags: ['scope:shared', 'scope:server'] },
  { sourceTag: 'scope:web', onlyDependOnLibsWithTags: ['scope:shared'] },
  ...['gateway', 'auth', 'billing', 'relay', 'chat', 'admin'].map((s) => ({
    sourceTag: `scope:${s}`,
    onlyDependOnLibsWithTags: ['scope:shared', 'scope:server', 'scope:testing'],
  })),
  { sourceTag: 'scope:launcher', onlyDependOnLibsWithTags: ['*'] },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '.infra/**',
      '.cache/**',
      'bench/results/**',
      '**/*.d.ts',
    ],
  },
  ...nx.configs['flat/base'],
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints,
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // The launcher is the one composition root: it starts the services, so it alone imports apps.
    files: ['tools/launcher/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [
            '@tollgate/gateway',
            '@tollgate/auth',
            '@tollgate/billing',
            '@tollgate/relay',
            '@tollgate/chat',
            '@tollgate/admin',
          ],
          depConstraints,
        },
      ],
    },
  },
  {
    // The composition rule (docs/platform.md, "Composition"): what a hot path's scope runs per call is a
    // named function — no anonymous closure registered on the scope or written as a route's handler.
    files: [
      'apps/relay/src/http/v1-routes.ts',
      'apps/relay/src/http/json-body-parser.ts',
      'apps/gateway/src/gateway.routes.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.object.name='scope'][callee.property.name=/^(route|get|post|all|addHook|addContentTypeParser|setErrorHandler)$/] > :matches(ArrowFunctionExpression, FunctionExpression[id=null])",
          message: 'Register a named handler on the scope (docs/platform.md, "Composition").',
        },
        {
          selector:
            'Property[key.name=/^(handle|handler|onRequest)$/] > :matches(ArrowFunctionExpression, FunctionExpression[id=null]).value',
          message: 'A route\'s handler is a named function (docs/platform.md, "Composition").',
        },
      ],
    },
  },
  {
    // A service's main.ts loads only the runtime's cheap entry: a cluster primary must not load NestJS,
    // MikroORM, Kafka, Redis or OpenTelemetry (docs/platform.md, "The runtime's two entry points").
    files: ['apps/*/src/main.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@tollgate/runtime',
              message: 'Import @tollgate/runtime/main in main.ts; the service loads the rest itself.',
            },
          ],
        },
      ],
    },
  },
  {
    // A query read again after a change goes through readAgain, which cancels a read that may have left
    // before the change (invalidateQueries hands such a read back while a list is on its first load).
    files: ['apps/web/src/**/*.ts', 'apps/web/src/**/*.tsx'],
    ignores: ['apps/web/src/api/query-client.ts', '**/*.spec.ts', '**/*.spec.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='invalidateQueries']",
          message: 'Read the query again with readAgain (apps/web/src/api/query-client.ts).',
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/test/**/*.ts', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // ---- relay folder rules (docs/relay.md, "Where things are"): a client's call crosses its dialect,
  // the canonical shapes and one provider, never another dialect's folder. Import specifiers are
  // relative, so the patterns match the folder names in them.
  ...['openai', 'anthropic', 'gemini'].flatMap((dialect, _, dialects) => [
    {
      files: [`apps/relay/src/dialects/${dialect}/**/*.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                regex: `(^\\.\\.|/dialects)/(${dialects.filter((d) => d !== dialect).join('|')})(/|$)`,
                message: "A dialect never imports another dialect's files (docs/relay.md).",
              },
            ],
          },
        ],
      },
    },
    {
      // A dialect takes from providers/ only its own family's wire types, as types (its specs may
      // check against a provider's transforms).
      files: [`apps/relay/src/dialects/${dialect}/**/*.ts`],
      ignores: ['**/*.spec.ts'],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                regex: `(^|/)providers/${dialect}/types$`,
                allowTypeImports: true,
                message: `Import the ${dialect} wire types as types only (docs/relay.md).`,
              },
              {
                regex: `(^|/)providers(/(?!${dialect}/types$)|$)`,
                message: "A dialect takes from providers/ only its own family's wire types (docs/relay.md).",
              },
            ],
          },
        ],
      },
    },
  ]),
  {
    // What stands beside the dialects (the protocol contract, request validation) takes nothing from providers/.
    files: ['apps/relay/src/dialects/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)providers(/|$)',
              message: 'The files beside the dialects take nothing from providers/ (docs/relay.md).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/relay/src/providers/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '(^|/)dialects(/|$)', message: 'A provider never imports a dialect (docs/relay.md).' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/relay/src/canonical/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\.(/|$)',
              message: 'The canonical shapes import nothing else of relay (docs/relay.md).',
            },
          ],
        },
      ],
    },
  },
  // ---- end of the relay folder rules
  prettier,
);
