// One Jest run, three tiers. Unit tests have no I/O; integration and e2e need the
// environment printed by `scripts/infra.sh env` (the test script sets it up).
const tsJest = ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }];
const moduleNameMapper = { '^@tollgate/([a-z-]+)$': '<rootDir>/libs/$1/src' };
const appsMapper = {
  '^@tollgate/(gateway|auth|billing|relay|chat|admin)$': '<rootDir>/apps/$1/src',
  '^@tollgate/launcher$': '<rootDir>/tools/launcher/src',
};
const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': tsJest },
  moduleNameMapper: { ...appsMapper, ...moduleNameMapper },
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/', '<rootDir>/data/', '<rootDir>/.infra/'],
};
module.exports = {
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs,tools}/*/src/**/*.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/apps/web/'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,tools}/*/test/integration/**/*.spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/jest/global-setup.ts',
      globalTeardown: '<rootDir>/libs/testing/src/jest/global-teardown.ts',
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/e2e/**/*.spec.ts'],
    },
  ],
};
