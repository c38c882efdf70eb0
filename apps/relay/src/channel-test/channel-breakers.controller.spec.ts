import type { RelayRuntime } from '../relay-runtime';
import { ChannelBreakers } from '../routing/channel-breakers';
import { aChannel } from '../routing/routing.fixtures';
import { ChannelBreakersController } from './channel-breakers.controller';

/** Cockatiel settles each recorded outcome a few microtasks later. */
const outcomesApplied = () => jest.advanceTimersByTimeAsync(0);

describe("relay's channel breakers for admin's channel list (CHANNEL_BREAKERS_CALL)", () => {
  const failing = aChannel({ id: 7 });
  const healthy = aChannel({ id: 8 });
  let breakers: ChannelBreakers;
  let controller: ChannelBreakersController;

  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000_000_400 });
    breakers = new ChannelBreakers({ consecutiveFailures: 3, halfOpenAfterMs: 30_000 });
    const runtime = { current: () => ({ heldChannels: () => breakers.held() }) };
    controller = new ChannelBreakersController(runtime as unknown as RelayRuntime);
  });

  afterEach(() => {
    breakers.dispose();
    jest.useRealTimers();
  });

  it('lists no channel while every circuit is closed, failures below the threshold included', async () => {
    breakers.recordFailure(failing);
    breakers.recordFailure(failing);
    breakers.recordSuccess(healthy);
    await outcomesApplied();
    expect(controller.breakers()).toEqual({ channels: [] });
  });

  it('lists a channel opened by failures as open until its next trial, in epoch seconds rounded up', async () => {
    for (let i = 0; i < 3; i++) breakers.recordFailure(failing);
    breakers.recordSuccess(healthy);
    await outcomesApplied();
    expect(controller.breakers()).toEqual({
      channels: [{ id: 7, state: 'open', next_trial_at: Math.ceil((1_000_000_400 + 30_000) / 1000) }],
    });
  });

  it('lists it half-open once the delay has passed, and no more once the trial succeeded', async () => {
    for (let i = 0; i < 3; i++) breakers.recordFailure(failing);
    await outcomesApplied();
    jest.setSystemTime(1_000_000_400 + 30_000);
    expect(controller.breakers()).toEqual({ channels: [{ id: 7, state: 'half_open', next_trial_at: null }] });

    expect(breakers.admits(7)).toBe(true);
    breakers.recordSuccess(failing);
    await outcomesApplied();
    expect(controller.breakers()).toEqual({ channels: [] });
  });

  it('answers an empty list before the hot path is composed', () => {
    const starting = new ChannelBreakersController({ current: () => undefined } as unknown as RelayRuntime);
    expect(starting.breakers()).toEqual({ channels: [] });
  });
});
