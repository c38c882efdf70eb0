import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UsageRecorded } from '@tollgate/contracts';
import type { Logger } from '@tollgate/platform';
import { UsageSpool } from './usage-spool';

const anEvent = (userId = 7) =>
  ({ v: 1, event_id: randomUUID(), user_id: userId, model: 'gpt-4o-mini', quota: 1200 }) as UsageRecorded;
const ids = (events: UsageRecorded[]) => events.map((event) => event.event_id).sort();

function aLogger() {
  const warnings: string[] = [];
  const logger = {
    info: () => undefined,
    warn: (_fields: unknown, message: string) => warnings.push(message),
    error: () => undefined,
  } as unknown as Logger;
  return { logger, warnings };
}

describe('UsageSpool', () => {
  let directory: string;
  const open: UsageSpool[] = [];
  const aSpool = (logger = aLogger().logger) => {
    const spool = new UsageSpool({ directory, logger });
    open.push(spool);
    return spool;
  };
  const spoolFiles = async () => (await readdir(directory)).filter((name) => name.endsWith('.jsonl'));

  beforeEach(async () => {
    directory = join(await mkdtemp(join(tmpdir(), 'usage-spool-')), 'spool');
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((spool) => spool.close()));
    await rm(join(directory, '..'), { recursive: true, force: true });
  });

  it('touches nothing on disk until something is appended', async () => {
    const spool = aSpool();
    expect(await spool.adopt()).toEqual([]);
    await spool.close();
    expect(existsSync(directory)).toBe(false);
  });

  it('keeps appended events for the next relay once their owner is gone', async () => {
    const first = aSpool();
    const events = [anEvent(), anEvent()];
    await first.append([events[0]!]);
    await first.append([events[1]!]);
    await first.close();

    expect(await aSpool().adopt()).toEqual(events);
  });

  it('gives every process a file of its own and never adopts the file of one that is alive', async () => {
    const alive = aSpool();
    const other = aSpool();
    await alive.append([anEvent()]);
    await other.append([anEvent()]);
    expect(await spoolFiles()).toHaveLength(2);

    expect(await aSpool().adopt()).toEqual([]);
    expect(await spoolFiles()).toHaveLength(2);
  });

  it('adopts the spool of a process killed with SIGKILL, whose lock socket is left behind', async () => {
    const owner = randomBytes(8).toString('hex');
    const event = anEvent();
    const lock = join(directory, `${owner}.lock`);
    // A process that holds its lock and appends as a relay does, then dies without closing anything.
    const script = `
      const fs = require('node:fs');
      fs.mkdirSync(${JSON.stringify(directory)}, { recursive: true });
      require('node:net').createServer().listen(${JSON.stringify(lock)}, () => {
        fs.appendFileSync(${JSON.stringify(join(directory, `${owner}.jsonl`))}, ${JSON.stringify(`${JSON.stringify(event)}\n`)});
        process.kill(process.pid, 'SIGKILL');
      });`;
    const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    const signal = await new Promise((done) => child.once('exit', (_code, killedBy) => done(killedBy)));
    expect(signal).toBe('SIGKILL');
    expect(existsSync(lock)).toBe(true);

    expect(await aSpool().adopt()).toEqual([event]);
    expect(existsSync(lock)).toBe(false);
  });

  it('removes what it adopted and what it appended once cleared, and keeps what is appended after', async () => {
    const first = aSpool();
    await first.append([anEvent()]);
    await first.close();
    const second = aSpool();
    expect(await second.adopt()).toHaveLength(1);
    const later = anEvent();
    void second.append([anEvent()]);
    void second.clear();
    await second.append([later]);
    await second.close();

    expect(await aSpool().adopt()).toEqual([later]);
  });

  it('leaves no file behind once everything it held was cleared', async () => {
    const spool = aSpool();
    await spool.append([anEvent()]);
    await spool.clear();
    await spool.close();
    expect(await readdir(directory)).toEqual([]);
  });

  it('removes, rather than keeps, the emptied spool of a relay that died after publishing everything', async () => {
    await mkdir(directory);
    await writeFile(join(directory, `${randomBytes(8).toString('hex')}.jsonl`), '');

    expect(await aSpool().adopt()).toEqual([]);
    expect(await spoolFiles()).toEqual([]);
  });

  it('skips a torn last line from a crash mid-write, with a warning', async () => {
    const events = [anEvent(), anEvent()];
    const text = events.map((event) => `${JSON.stringify(event)}\n`).join('');
    const torn = JSON.stringify(anEvent()).slice(0, 40);
    await mkdir(directory);
    await writeFile(join(directory, `${randomBytes(8).toString('hex')}.jsonl`), text + torn);
    const { logger, warnings } = aLogger();

    expect(await aSpool(logger).adopt()).toEqual(events);
    expect(warnings).toEqual(['torn last line of a usage spool skipped']);
  });

  it('gives each file to exactly one of two relays starting side by side', async () => {
    const events = [anEvent(1), anEvent(2), anEvent(3), anEvent(4)];
    await mkdir(directory);
    await Promise.all(
      events.map((event) =>
        writeFile(join(directory, `${randomBytes(8).toString('hex')}.jsonl`), `${JSON.stringify(event)}\n`),
      ),
    );

    const [one, two] = await Promise.all([aSpool().adopt(), aSpool().adopt()]);
    expect(ids([...one, ...two])).toEqual(ids(events));
  });
});
