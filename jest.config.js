// One Jest run, four tiers. Unit tests have no I/O; integration and e2e need the
// environment printed by `scripts/infra.sh env` (the test script sets it up).
const tsJest = ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }];
const moduleNameMapper = {
  '^@tollgate/([a-z-]+)$': '<rootDir>/libs/$1/src',
  // The runtime's cheap entry for a service's main.ts (libs/runtime/package.json "exports").
  '^@tollgate/runtime/main$': '<rootDir>/libs/runtime/src/main',
  // The persistence library's error predicates alone (libs/persistence/package.json "exports"), without its ORM.
  '^@tollgate/persistence/errors$': '<rootDir>/libs/persistence/src/database/database-errors',
};
const appsMapper = {
  '^@tollgate/(gateway|auth|billing|relay|chat|admin)$': '<rootDir>/apps/$1/src',
  '^@tollgate/launcher$': '<rootDir>/tools/launcher/src',
};
/** ES-module-only packages the web app's component tests load; Jest compiles them to CommonJS. */
const ESM_ONLY_WEB_PACKAGES = [
  'react-markdown',
  'remark-[a-z-]+',
  'rehype-[a-z-]+',
  'unified',
  'bail',
  'ccount',
  'character-[a-z-]+',
  'comma-separated-tokens',
  'decode-named-character-reference',
  'devlop',
  'escape-string-regexp',
  'estree-util-[a-z-]+',
  'hast-util-[a-z-]+',
  'hastscript',
  'html-url-attributes',
  'is-plain-obj',
  'longest-streak',
  'lowlight',
  'markdown-table',
  'mdast-util-[a-z-]+',
  'micromark[a-z-]*',
  'property-information',
  'space-separated-tokens',
  'trim-lines',
  'trough',
  'unist-util-[a-z-]+',
  'vfile[a-z-]*',
  'web-namespaces',
  'zwitch',
  'html-void-elements',
];
const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': tsJest },
  moduleNameMapper: { ...appsMapper, ...moduleNameMapper },
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/', '<rootDir>/data/', '<rootDir>/.infra/'],
};
module.exports = {
  // Files Jest has not timed yet (a fresh clone) go longest first, not smallest last.
  testSequencer: '<rootDir>/scripts/jest-sequencer.mjs',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs,tools}/*/src/**/*.spec.ts', '<rootDir>/chaos/src/**/*.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/apps/web/'],
    },
    {
      // The web app's component tests: jsdom, React, the web app's own tsconfig (compiled to CommonJS here).
      rootDir: __dirname,
      displayName: 'unit-web',
      testEnvironment: 'jsdom',
      testMatch: ['<rootDir>/apps/web/src/**/*.spec.{ts,tsx}'],
      transform: {
        '^.+\\.tsx?$': ['ts-jest', { tsconfig: '<rootDir>/apps/web/tsconfig.spec.json' }],
        // The Markdown renderer (react-markdown and the unified ecosystem) ships ES modules only.
        '^.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true, module: 'CommonJS', esModuleInterop: true } }],
      },
      transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY_WEB_PACKAGES.join('|')})/)`],
      moduleNameMapper: {
        '^@tollgate/contracts$': '<rootDir>/libs/contracts/src',
        '\\.(css)$': '<rootDir>/apps/web/test/style-stub.js',
      },
      setupFilesAfterEnv: ['<rootDir>/apps/web/test/setup-tests.ts'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,tools}/*/test/integration/**/*.spec.ts'],
      // Hooks too: a real server's setup or cleanup outlasted Jest's 5 s on a loaded CI machine.
      // Specs that need longer still set their own.
      testTimeout: 30_000,
      globalSetup: '<rootDir>/libs/testing/src/jest/global-setup.ts',
      setupFiles: ['<rootDir>/libs/testing/src/jest/pglite-per-worker.ts'],
      globalTeardown: '<rootDir>/libs/testing/src/jest/global-teardown.ts',
    },
    {
      // Property-based fuzzing of every public endpoint on real PostgreSQL, Redis and Kafka (fuzz/).
      ...common,
      displayName: 'fuzz',
      testMatch: ['<rootDir>/fuzz/**/*.spec.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/e2e/**/*.spec.ts'],
    },
    {
      // The built web app on the embedded platform, driven in Debian's chromium (playwright-core).
      ...common,
      displayName: 'browser',
      testMatch: ['<rootDir>/apps/web/test/browser/*.spec.ts'],
    },
  ],
};
