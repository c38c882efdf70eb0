import {
  controlKafkajsFetches,
  controlledFetch,
  interruptFetches,
  paceIdleFetches,
} from './kafkajs-fetch-control';

/** kafkajs answers a batch for every partition it fetched, empty or not. */
const empty = { isEmpty: () => true };
const records = { isEmpty: () => false };

/** A stand-in for kafkajs's ConsumerGroup: records what each fetch was sent with, answers as told. */
function aGroup(groupId: string, answers: Array<Array<{ isEmpty(): boolean }>> = []) {
  const fetchConnection = {
    requestQueue: { inflight: new Map<number, unknown>([[7, {}]]), pending: [] as unknown[] },
    rejectRequests: jest.fn(),
    socket: { destroy: jest.fn() },
  };
  const otherConnection = { ...fetchConnection, rejectRequests: jest.fn(), socket: { destroy: jest.fn() } };
  const sent: Array<{ minBytes: number; maxWaitTime: number }> = [];
  let inFlight: ((batches: Array<{ isEmpty(): boolean }>) => void) | undefined;
  const group = {
    groupId,
    minBytes: 65_536,
    maxWaitTime: 100,
    cluster: {
      brokerPool: { brokers: { '1': { connectionPool: { pool: [otherConnection, fetchConnection] } } } },
    },
    fetch: controlledFetch(function (this: { minBytes: number; maxWaitTime: number }) {
      sent.push({ minBytes: this.minBytes, maxWaitTime: this.maxWaitTime });
      const answer = answers.shift();
      return answer
        ? Promise.resolve(answer)
        : new Promise<Array<{ isEmpty(): boolean }>>((resolve) => (inFlight = resolve));
    }),
  };
  return {
    group,
    sent,
    fetchConnection,
    otherConnection,
    answerInFlight: (b: Array<{ isEmpty(): boolean }>) => inFlight?.(b),
  };
}

describe('controlledFetch', () => {
  it("fetches with a paced group's batching while records come, and waits long for the first one after an empty fetch", async () => {
    const unpace = paceIdleFetches('paced', { idleWaitMs: 5000 });
    const { group, sent } = aGroup('paced', [[empty, empty], [empty], [empty, records], [records], [empty]]);
    for (let i = 0; i < 5; i++) await group.fetch(1);
    unpace();
    expect(sent).toEqual([
      { minBytes: 65_536, maxWaitTime: 100 },
      { minBytes: 1, maxWaitTime: 5000 },
      { minBytes: 1, maxWaitTime: 5000 },
      { minBytes: 65_536, maxWaitTime: 100 },
      { minBytes: 65_536, maxWaitTime: 100 },
    ]);
  });

  it('leaves the fetches of a group nobody paced as kafkajs makes them', async () => {
    const { group, sent } = aGroup('unpaced', [[empty], [empty], [records]]);
    for (let i = 0; i < 3; i++) await group.fetch(1);
    expect(sent).toEqual(Array(3).fill({ minBytes: 65_536, maxWaitTime: 100 }));
  });

  it('stops pacing a group once its last member undid it', async () => {
    const first = paceIdleFetches('members', { idleWaitMs: 5000 });
    const second = paceIdleFetches('members', { idleWaitMs: 5000 });
    first();
    first();
    const { group, sent } = aGroup('members', [[empty], [empty]]);
    await group.fetch(1);
    await group.fetch(1);
    expect(sent[1]).toEqual({ minBytes: 1, maxWaitTime: 5000 });
    second();
    const later = aGroup('members', [[empty], [empty]]);
    await later.group.fetch(1);
    await later.group.fetch(1);
    expect(later.sent[1]).toEqual({ minBytes: 65_536, maxWaitTime: 100 });
  });
});

describe('interruptFetches', () => {
  it('answers the fetch in flight with no batches and fetches nothing more', async () => {
    const { group, sent, answerInFlight } = aGroup('stopping');
    const fetching = group.fetch(1);
    interruptFetches(group);
    await expect(fetching).resolves.toEqual([]);
    // What the broker answers afterwards is not handed to kafkajs's loop.
    answerInFlight([records]);
    await expect(group.fetch(1)).resolves.toEqual([]);
    expect(sent).toHaveLength(1);
  });

  it("drops the requests of the group's fetch connection only, and closes it", () => {
    const { group, fetchConnection, otherConnection } = aGroup('stopping-connections');
    interruptFetches(group);
    expect(fetchConnection.rejectRequests).toHaveBeenCalledTimes(1);
    expect(fetchConnection.socket.destroy).toHaveBeenCalledTimes(1);
    expect(otherConnection.rejectRequests).not.toHaveBeenCalled();
    expect(otherConnection.socket.destroy).not.toHaveBeenCalled();
  });
});

describe('controlKafkajsFetches', () => {
  it('installs on the kafkajs it was written for', () => {
    expect(controlKafkajsFetches()).toBe(true);
  });
});
