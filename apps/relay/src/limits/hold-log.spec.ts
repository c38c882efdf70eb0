import { HoldLog } from './hold-log';

describe('HoldLog', () => {
  it('tells how long until the oldest holds free what is asked, skipping those already freed', () => {
    const log = new HoldLog();
    log.add('limit:rpm:user:1', 1, 60_000, 0);
    log.add('limit:rpm:user:1', 1, 61_000, 1_000);
    log.add('limit:rpm:user:1', 1, 62_000, 2_000);
    expect(log.msUntilFreed('limit:rpm:user:1', 1, 5_000)).toBe(55_000);
    expect(log.msUntilFreed('limit:rpm:user:1', 2, 5_000)).toBe(56_000);
    expect(log.msUntilFreed('limit:rpm:user:1', 1, 60_500)).toBe(500);
  });

  it('knows nothing when this replica holds less than is asked, or nothing on the account', () => {
    const log = new HoldLog();
    log.add('limit:tpm:key:4', 300, 60_000, 0);
    expect(log.msUntilFreed('limit:tpm:key:4', 301, 1_000)).toBeUndefined();
    expect(log.msUntilFreed('limit:tpm:key:5', 1, 1_000)).toBeUndefined();
    expect(log.msUntilFreed('limit:tpm:key:4', 300, 60_000)).toBeUndefined();
  });

  it('forgets accounts whose holds have all freed, so an idle client costs no memory', () => {
    const log = new HoldLog();
    for (let user = 0; user < 5000; user++) log.add(`limit:rpm:user:${user}`, 1, 60_000, 0);
    const accounts = (log as unknown as { accounts: Map<string, unknown> }).accounts;
    expect(accounts.size).toBe(5000);
    for (let call = 0; call < 4096; call++) log.add('limit:rpm:user:busy', 1, 120_000 + call, 60_000 + call);
    expect(accounts.size).toBe(1);
  });
});
