// Applies a fault to the running platform and lifts it: SIGKILL then a restart, as a supervisor
// would; or SIGSTOP then SIGCONT. Infrastructure servers come back before the services that need them.
import type { ServiceProcess } from '@tollgate/launcher';
import { faultName, type FaultSpec, type FaultTarget } from './fault-plan';
import type { FaultWindow } from './checks';
import type { Infrastructure, InfraServer } from './infra';
import type { ChaosPlatform } from './platform';

const INFRA_SERVERS: readonly string[] = ['postgres', 'redis', 'kafka'];
const isInfra = (target: FaultTarget): target is InfraServer & FaultTarget => INFRA_SERVERS.includes(target);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface AppliedFault extends FaultWindow {
  /** What went wrong while applying or lifting the fault (a restart that failed, …). */
  problems: string[];
}

export class FaultInjector {
  constructor(
    private readonly platform: ChaosPlatform,
    private readonly infra: Infrastructure,
    private readonly timing: { downMs: number; freezeMs: number },
    private readonly log: (line: string) => void,
  ) {}

  private service(target: FaultTarget): ServiceProcess {
    switch (target) {
      case 'relay-1':
      case 'billing-1':
        return this.platform.replicas[target];
      case 'auth':
      case 'admin':
      case 'gateway':
        return this.platform.platform.services[target];
      default:
        throw new Error(`${target} is not a service`);
    }
  }

  private signal(target: FaultTarget, signal: NodeJS.Signals): void {
    if (isInfra(target)) {
      this.infra.signal(target, signal);
      return;
    }
    const pid = this.service(target).pid;
    if (pid === undefined) throw new Error(`${target} has no process`);
    process.kill(pid, signal);
  }

  async apply(fault: FaultSpec): Promise<AppliedFault> {
    const name = faultName(fault);
    const problems: string[] = [];
    const attempt = async (what: string, step: () => Promise<void> | void) => {
      try {
        await step();
      } catch (error) {
        problems.push(`${what}: ${(error as Error).message.split('\n')[0]}`);
        this.log(`${name}: ${what} failed: ${(error as Error).message}`);
      }
    };
    // Infrastructure first when coming back: a service restarted before its database would fail to start.
    const comeBackOrder = [...fault.targets].sort((a, b) => Number(isInfra(b)) - Number(isInfra(a)));
    this.log(`fault ${name}: applying`);
    const injectedAt = Date.now();
    if (fault.mode === 'freeze') {
      for (const target of fault.targets)
        await attempt(`SIGSTOP ${target}`, () => this.signal(target, 'SIGSTOP'));
      await pause(this.timing.freezeMs);
      for (const target of comeBackOrder)
        await attempt(`SIGCONT ${target}`, () => this.signal(target, 'SIGCONT'));
    } else {
      await Promise.all(
        fault.targets.map((target) =>
          attempt(`SIGKILL ${target}`, async () => {
            if (isInfra(target)) {
              const pid = this.infra.pid(target);
              this.infra.signal(target, 'SIGKILL');
              await this.infra.waitGone(target, pid);
            } else {
              // ServiceProcess.kill waits until the process is gone.
              await this.service(target).kill('SIGKILL');
            }
          }),
        ),
      );
      await pause(this.timing.downMs);
      for (const target of comeBackOrder) {
        await attempt(`restart ${target}`, async () => {
          if (isInfra(target)) await this.infra.restart(target);
          else await this.startWithRetry(target);
        });
      }
    }
    const liftedAt = Date.now();
    this.log(`fault ${name}: lifted after ${((liftedAt - injectedAt) / 1000).toFixed(1)} s`);
    return { name, injectedAt, liftedAt, problems };
  }

  /** A supervisor restarts a service that failed to come up, too (e.g. while its broker still recovers). */
  private async startWithRetry(target: FaultTarget): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.service(target).start();
        return;
      } catch (error) {
        if (attempt >= 3) throw error;
        this.log(`${target}: start attempt ${attempt} failed (${(error as Error).message}); again`);
        await this.service(target).kill('SIGKILL');
      }
    }
  }
}
