export interface FakeUpstreamStats {
  /** Provider requests received (internal routes such as /health are not counted). */
  requests: number;
  /** Requests per route id, e.g. `openai.chat.completions`, `anthropic.messages`, `not_found`. */
  byRoute: Record<string, number>;
  /** Requests refused for a missing or wrong key. */
  unauthorized: number;
  /** Requests answered with the configured failure status. */
  injectedFailures: number;
  streamsStarted: number;
  streamsCompleted: number;
  /** Streams the client went away from before their end. */
  abortedStreams: number;
  /** Streams the fake cut on purpose (`dropAfter`). */
  droppedStreams: number;
  /** Streams still being written. */
  activeStreams: number;
  /** Non-streamed requests the client went away from before their answer (e.g. during `latencyMs`). */
  abortedRequests: number;
}

type Counter = Exclude<keyof FakeUpstreamStats, 'byRoute' | 'activeStreams'>;

export class StatsRecorder {
  private counters = StatsRecorder.zero();
  private routes = new Map<string, number>();
  /** Not reset with the counters: it describes streams open right now. */
  activeStreams = 0;

  private static zero(): Record<Counter, number> {
    return {
      requests: 0,
      unauthorized: 0,
      injectedFailures: 0,
      streamsStarted: 0,
      streamsCompleted: 0,
      abortedStreams: 0,
      droppedStreams: 0,
      abortedRequests: 0,
    };
  }

  request(routeId: string): void {
    this.counters.requests += 1;
    this.routes.set(routeId, (this.routes.get(routeId) ?? 0) + 1);
  }

  increment(counter: Exclude<Counter, 'requests'>): void {
    this.counters[counter] += 1;
  }

  snapshot(): FakeUpstreamStats {
    return { ...this.counters, byRoute: Object.fromEntries(this.routes), activeStreams: this.activeStreams };
  }

  reset(): void {
    this.counters = StatsRecorder.zero();
    this.routes = new Map();
  }
}
