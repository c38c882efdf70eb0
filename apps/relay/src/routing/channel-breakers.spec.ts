import { CircuitState } from 'cockatiel';
import { ChannelBreakers } from './channel-breakers';
import { aChannel } from './routing.fixtures';

/** Cockatiel settles each recorded outcome a few microtasks later. */
const outcomesApplied = () => jest.advanceTimersByTimeAsync(0);

describe('ChannelBreakers', () => {
  const channel = aChannel({ id: 7 });
  let health: Array<[number, boolean]>;
  let breakers: ChannelBreakers;

  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000_000 });
    health = [];
    breakers = new ChannelBreakers({ consecutiveFailures: 3, halfOpenAfterMs: 30_000 }, (c, healthy) =>
      health.push([c.id, healthy]),
    );
  });

  afterEach(() => {
    breakers.dispose();
    jest.useRealTimers();
  });

  async function fail(times: number) {
    for (let i = 0; i < times; i++) breakers.recordFailure(channel);
    await outcomesApplied();
  }

  it('admits a channel it has never seen fail', () => {
    expect(breakers.admits(7)).toBe(true);
    expect(breakers.state(7)).toBe(CircuitState.Closed);
  });

  it('opens after the configured consecutive failures and reports the channel unhealthy once', async () => {
    await fail(2);
    expect(breakers.admits(7)).toBe(true);
    await fail(1);
    expect(breakers.state(7)).toBe(CircuitState.Open);
    expect(breakers.admits(7)).toBe(false);
    await fail(3);
    expect(health).toEqual([[7, false]]);
  });

  it('starts counting again after a success', async () => {
    await fail(2);
    breakers.recordSuccess(channel);
    await outcomesApplied();
    await fail(2);
    expect(breakers.state(7)).toBe(CircuitState.Closed);
  });

  it('applies outcomes in the order they were recorded, even within one tick', async () => {
    breakers.recordFailure(channel);
    breakers.recordFailure(channel);
    breakers.recordSuccess(channel);
    breakers.recordFailure(channel);
    await outcomesApplied();
    expect(breakers.state(7)).toBe(CircuitState.Closed);
    breakers.recordFailure(channel);
    breakers.recordFailure(channel);
    await outcomesApplied();
    expect(breakers.state(7)).toBe(CircuitState.Open);
  });

  it('admits an open channel again once the half-open delay has passed', async () => {
    await fail(3);
    jest.advanceTimersByTime(29_999);
    expect(breakers.admits(7)).toBe(false);
    jest.advanceTimersByTime(1);
    expect(breakers.admits(7)).toBe(true);
  });

  it('closes on a success after the delay and reports the channel healthy', async () => {
    await fail(3);
    jest.advanceTimersByTime(30_000);
    breakers.recordSuccess(channel);
    await outcomesApplied();
    expect(breakers.state(7)).toBe(CircuitState.Closed);
    expect(health).toEqual([
      [7, false],
      [7, true],
    ]);
  });

  it('opens again for a full delay when the half-open trial fails', async () => {
    await fail(3);
    jest.advanceTimersByTime(30_000);
    await fail(1);
    expect(breakers.state(7)).toBe(CircuitState.Open);
    expect(breakers.admits(7)).toBe(false);
    jest.advanceTimersByTime(30_000);
    expect(breakers.admits(7)).toBe(true);
    expect(health).toEqual([[7, false]]);
  });

  it('admits one trial at a time once the delay has passed, until an outcome is recorded', async () => {
    await fail(3);
    jest.advanceTimersByTime(30_000);
    expect([1, 2, 3].map(() => breakers.admits(7))).toEqual([true, false, false]);
    breakers.recordSuccess(channel);
    await outcomesApplied();
    expect(breakers.state(7)).toBe(CircuitState.Closed);
    expect([1, 2, 3].map(() => breakers.admits(7))).toEqual([true, true, true]);
  });

  it('lets another trial go when the one admitted told nothing within the half-open delay', async () => {
    await fail(3);
    jest.advanceTimersByTime(30_000);
    expect(breakers.admits(7)).toBe(true);
    jest.advanceTimersByTime(29_999);
    expect(breakers.admits(7)).toBe(false);
    jest.advanceTimersByTime(1);
    expect([1, 2].map(() => breakers.admits(7))).toEqual([true, false]);
  });

  it('ignores successes recorded while the circuit is open and the delay runs', async () => {
    await fail(3);
    breakers.recordSuccess(channel);
    await outcomesApplied();
    expect(breakers.state(7)).toBe(CircuitState.Open);
  });

  it('forgets the circuits of channels that left the table, and says so', async () => {
    const gone: number[] = [];
    const forgetting = new ChannelBreakers(
      { consecutiveFailures: 3, halfOpenAfterMs: 30_000 },
      undefined,
      (c) => gone.push(c.id),
    );
    for (let i = 0; i < 3; i++) forgetting.recordFailure(channel);
    await outcomesApplied();
    expect(forgetting.admits(7)).toBe(false);
    forgetting.retainOnly(new Set([7, 8]));
    expect(gone).toEqual([]);
    forgetting.retainOnly(new Set([8]));
    expect(forgetting.admits(7)).toBe(true);
    expect(gone).toEqual([7]);
    forgetting.dispose();
  });
});
