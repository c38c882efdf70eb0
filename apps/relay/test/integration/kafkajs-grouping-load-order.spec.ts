import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const REPO = join(__dirname, '../../../..');
const RELAY_START = join(REPO, 'apps/relay/dist/start-relay.js');

/** Loads `first` in a fresh Node process (Node's own module cache, not Jest's), then asks @tollgate/events. */
function groupsInOnePassAfterLoading(first: string): string {
  const script = `require(${JSON.stringify(first)});
process.stdout.write(String(require('@tollgate/events').kafkajsGroupsInOnePass()));`;
  const child = spawnSync(process.execPath, ['-e', script], { cwd: REPO, encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`child failed: ${child.stderr}`);
  return child.stdout;
}

// libs/events replaces kafkajs's quadratic per-partition grouping in Node's module cache before kafkajs loads
// (kafkajs-partition-grouping.ts); a module of relay's that imported kafkajs ahead of @tollgate/events would
// silently keep kafkajs's own, and every usage publish would make its garbage again (bench/ANALYSIS.md, h122).
describe("relay's built service and kafkajs's message grouping", () => {
  it('loads @tollgate/events before kafkajs, so the producer groups messages in one pass', () => {
    expect(groupsInOnePassAfterLoading(RELAY_START)).toBe('true');
  });

  it('would be told apart from a process that loaded kafkajs first', () => {
    expect(groupsInOnePassAfterLoading('kafkajs')).toBe('false');
  });
});
