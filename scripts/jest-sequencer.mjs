// Jest's order of test files (jest.config.js `testSequencer`), with the longest files first on a
// machine that has not run them yet. Jest runs a file it has timed before by its last duration,
// longest first, and one it has not by its size: on a fresh clone (CI) a short file that runs for
// minutes (child processes, a whole platform) started among the last and ran on alone at the end.
import jestSequencer from '@jest/test-sequencer';

const TestSequencer = jestSequencer.default ?? jestSequencer;

/**
 * Integration files that take longest, longest first: session 28's CI run's per-file seconds at three
 * workers, those h88 shortened scaled by its measurements (bench/ANALYSIS.md, "CI: the integration
 * tier's two longest files"). Untimed files not listed follow by size.
 */
const LONGEST = [
  'tools/launcher/test/integration/legacy-pglite-migration.spec.ts',
  'apps/auth/test/integration/accounts.spec.ts',
  'tools/launcher/test/integration/two-embedded-platforms.spec.ts',
  'apps/chat/test/integration/chat.spec.ts',
  'libs/persistence/test/integration/pglite-in-thread.spec.ts',
  'libs/persistence/test/integration/pglite-server.spec.ts',
  'tools/launcher/test/integration/embedded-relay-hop.spec.ts',
];

export default class LongestFirst extends TestSequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const rank = (test) => {
      if (test.duration !== undefined) return -1;
      const relative = test.path.slice(test.context.config.rootDir.length + 1);
      return LONGEST.indexOf(relative);
    };
    const first = sorted.filter((test) => rank(test) >= 0).sort((a, b) => rank(a) - rank(b));
    return [...first, ...sorted.filter((test) => rank(test) < 0)];
  }
}
