import type { CatalogChannel } from '@tollgate/contracts';
import {
  circuitBreaker,
  type CircuitBreakerPolicy,
  CircuitState,
  ConsecutiveBreaker,
  handleAll,
  type IDisposable,
} from 'cockatiel';
import type { RoutingOptions } from './routing-options';

interface ChannelCircuit {
  readonly policy: CircuitBreakerPolicy;
  readonly subscriptions: IDisposable[];
  /** The latest copy of the channel, handed to onHealthChange. */
  channel: CatalogChannel;
  openedAt: number;
  healthy: boolean;
  /** A failure was recorded since the last success (cockatiel's own counter may lag behind). */
  failedSinceSuccess: boolean;
  /** Date.now() when the trial call in flight was admitted past an open circuit; 0 when none is. */
  trialSince: number;
  /**
   * Outcomes reach cockatiel one after another through this chain: execute() is asynchronous and
   * takes more microtasks for a success than for a failure, so unchained they could overtake.
   */
  applied: Promise<void>;
}

/** A circuit that holds its channel out of plans, as admin's channel list shows it. */
export interface HeldChannel {
  readonly id: number;
  /** `open`: no calls until `nextTrialAtMs`; `half_open`: the next call, or the one in flight, is the trial. */
  readonly state: 'open' | 'half_open';
  /** Date.now() from which an open circuit lets one trial through; null when half-open. */
  readonly nextTrialAtMs: number | null;
}

const CHANNEL_FAILED = new Error('channel attempt failed');
const succeed = (): void => undefined;
const fail = (): never => {
  throw CHANNEL_FAILED;
};
/** An outcome is fed for its effect on the circuit; what execute() returns or rethrows is moot. */
const ignore = (): void => undefined;

/**
 * One cockatiel circuit breaker per channel, fed with the outcome of each attempt after the fact
 * (the attempt itself runs in the relay pipeline, between plan() and recordX()). Cockatiel's
 * clock is Date.now(); it moves an open circuit to half-open on the first outcome recorded after
 * the delay, so admits() applies the same delay to let plans try the channel again meanwhile.
 * A circuit exists only for channels that have failed: the common path allocates nothing.
 */
export class ChannelBreakers {
  private readonly circuits = new Map<number, ChannelCircuit>();

  constructor(
    private readonly settings: RoutingOptions['breaker'],
    private readonly onHealthChange?: (channel: CatalogChannel, healthy: boolean) => void,
    private readonly onForget?: (channel: CatalogChannel) => void,
  ) {}

  /**
   * Closed circuits admit the channel. An open one, once its delay has passed, and a half-open one
   * admit one trial call at a time: the plan that is told yes holds the trial until an outcome of
   * the channel is recorded, and meanwhile every other plan leaves the channel out, as if the circuit
   * were still open (so a channel that hangs gets one call, not all of them). Cockatiel does the
   * same when it runs the calls itself, making the others wait for the trial instead; here they go
   * to other channels. A trial that tells nothing (its client left, the channel came after others in
   * the plan and was never tried) frees its place after the half-open delay.
   */
  admits(channelId: number): boolean {
    if (this.circuits.size === 0) return true;
    const circuit = this.circuits.get(channelId);
    if (!circuit) return true;
    const state = circuit.policy.state;
    if (state === CircuitState.Closed) return true;
    if (state !== CircuitState.Open && state !== CircuitState.HalfOpen) return false;
    const now = Date.now();
    if (state === CircuitState.Open && now - circuit.openedAt < this.settings.halfOpenAfterMs) return false;
    if (circuit.trialSince !== 0 && now - circuit.trialSince < this.settings.halfOpenAfterMs) return false;
    circuit.trialSince = now;
    return true;
  }

  /** The circuit's state, for health reports and tests. */
  state(channelId: number): CircuitState {
    return this.circuits.get(channelId)?.policy.state ?? CircuitState.Closed;
  }

  /**
   * The circuits that are not closed. An open circuit whose delay has passed reads half-open: admits()
   * lets its next call through as the trial (cockatiel itself moves only when that outcome comes).
   */
  held(now = Date.now()): HeldChannel[] {
    const held: HeldChannel[] = [];
    for (const [id, circuit] of this.circuits) {
      const state = circuit.policy.state;
      if (state === CircuitState.Open) {
        const trialAt = circuit.openedAt + this.settings.halfOpenAfterMs;
        held.push(
          now < trialAt
            ? { id, state: 'open', nextTrialAtMs: trialAt }
            : { id, state: 'half_open', nextTrialAtMs: null },
        );
      } else if (state === CircuitState.HalfOpen) {
        held.push({ id, state: 'half_open', nextTrialAtMs: null });
      }
    }
    return held;
  }

  recordSuccess(channel: CatalogChannel): void {
    const circuit = this.circuits.get(channel.id);
    if (!circuit) return;
    circuit.channel = channel;
    circuit.trialSince = 0;
    if (circuit.policy.state === CircuitState.Closed && !circuit.failedSinceSuccess) return;
    circuit.failedSinceSuccess = false;
    this.apply(circuit, succeed);
  }

  recordFailure(channel: CatalogChannel): void {
    const circuit = this.circuitFor(channel);
    circuit.channel = channel;
    circuit.failedSinceSuccess = true;
    circuit.trialSince = 0;
    this.apply(circuit, fail);
  }

  /** Forgets channels that left the table. */
  retainOnly(liveIds: ReadonlySet<number>): void {
    for (const [id, circuit] of this.circuits) {
      if (!liveIds.has(id)) {
        this.circuits.delete(id);
        disposeAll(circuit.subscriptions);
        this.onForget?.(circuit.channel);
      }
    }
  }

  dispose(): void {
    for (const circuit of this.circuits.values()) disposeAll(circuit.subscriptions);
    this.circuits.clear();
  }

  private circuitFor(channel: CatalogChannel): ChannelCircuit {
    const existing = this.circuits.get(channel.id);
    if (existing) return existing;
    const policy = circuitBreaker(handleAll, {
      halfOpenAfter: this.settings.halfOpenAfterMs,
      breaker: new ConsecutiveBreaker(this.settings.consecutiveFailures),
    });
    const circuit: ChannelCircuit = {
      policy,
      subscriptions: [],
      channel,
      openedAt: 0,
      healthy: true,
      failedSinceSuccess: false,
      trialSince: 0,
      applied: Promise.resolve(),
    };
    circuit.subscriptions.push(
      policy.onBreak(() => {
        circuit.openedAt = Date.now();
        this.setHealth(circuit, false);
      }),
      policy.onReset(() => this.setHealth(circuit, true)),
    );
    this.circuits.set(channel.id, circuit);
    return circuit;
  }

  private apply(circuit: ChannelCircuit, outcome: () => void): void {
    circuit.applied = circuit.applied.then(() => circuit.policy.execute(outcome).then(ignore, ignore));
  }

  private setHealth(circuit: ChannelCircuit, healthy: boolean): void {
    if (circuit.healthy === healthy) return;
    circuit.healthy = healthy;
    this.onHealthChange?.(circuit.channel, healthy);
  }
}

function disposeAll(subscriptions: readonly IDisposable[]): void {
  for (const subscription of subscriptions) subscription.dispose();
}
