import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';

/** Resolves when the dependency is usable; throws (or rejects) with the reason when it is not. */
export type ReadinessCheck = () => Promise<unknown> | unknown;

export interface ReadinessFailure {
  readonly check: string;
  readonly reason: string;
}

export interface ReadinessReport {
  readonly ready: boolean;
  readonly checks: readonly string[];
  readonly failures: readonly ReadinessFailure[];
}

const DEFAULT_TIMEOUT_MS = 2_000;
const SHUTTING_DOWN = 'shutdown';

const withTimeout = async (check: ReadinessCheck, timeoutMs: number): Promise<void> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([Promise.resolve().then(check), timeout]);
  } finally {
    clearTimeout(timer);
  }
};

/** What a service must have before it takes traffic (database reachable, topics caught up…). */
@Injectable()
export class HealthRegistry implements BeforeApplicationShutdown {
  private readonly checks = new Map<string, { check: ReadinessCheck; timeoutMs: number }>();
  private shuttingDown = false;

  registerReadinessCheck(name: string, check: ReadinessCheck, { timeoutMs = DEFAULT_TIMEOUT_MS } = {}): void {
    if (this.checks.has(name)) throw new Error(`Readiness check "${name}" is already registered`);
    this.checks.set(name, { check, timeoutMs });
  }

  async readiness(): Promise<ReadinessReport> {
    const entries = [...this.checks.entries()];
    const results = await Promise.allSettled(
      entries.map(([, { check, timeoutMs }]) => withTimeout(check, timeoutMs)),
    );
    const failures: ReadinessFailure[] = [];
    entries.forEach(([name], index) => {
      const result = results[index];
      if (result?.status === 'rejected') failures.push({ check: name, reason: reasonOf(result.reason) });
    });
    if (this.shuttingDown) failures.push({ check: SHUTTING_DOWN, reason: 'the service is shutting down' });
    return { ready: failures.length === 0, checks: entries.map(([name]) => name), failures };
  }

  /** A draining instance stops being ready so load balancers move traffic away before it closes. */
  beforeApplicationShutdown(): void {
    this.shuttingDown = true;
  }
}

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
