// What the suite breaks: a fault is one mode applied to one or two targets at once.

/** The relay and billing replicas are numbered; the second one of each keeps serving. */
export const FAULT_TARGETS = [
  'relay-1',
  'billing-1',
  'auth',
  'admin',
  'gateway',
  'kafka',
  'redis',
  'postgres',
] as const;
export type FaultTarget = (typeof FAULT_TARGETS)[number];

/** `kill`: SIGKILL, down for a while, restarted. `freeze`: SIGSTOP for a while, then SIGCONT. */
export const FAULT_MODES = ['kill', 'freeze'] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export interface FaultSpec {
  mode: FaultMode;
  targets: FaultTarget[];
}

export const faultName = (fault: FaultSpec): string => `${fault.mode}:${fault.targets.join('+')}`;

const isTarget = (value: string): value is FaultTarget =>
  (FAULT_TARGETS as readonly string[]).includes(value);
const isMode = (value: string): value is FaultMode => (FAULT_MODES as readonly string[]).includes(value);

/** `kill:relay-1,freeze:redis+auth` → faults, in order; every mistake named. */
export function parseFaultList(list: string): FaultSpec[] {
  const entries = list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error('--faults names no fault');
  return entries.map((entry) => {
    const [mode, targetList, extra] = entry.split(':');
    if (!mode || !targetList || extra !== undefined)
      throw new Error(`fault "${entry}" is not MODE:TARGET[+TARGET]`);
    if (!isMode(mode)) throw new Error(`fault "${entry}": mode must be one of ${FAULT_MODES.join(', ')}`);
    const targets = targetList.split('+').map((t) => t.trim());
    const unknown = targets.filter((t) => !isTarget(t));
    if (unknown.length)
      throw new Error(`fault "${entry}": unknown target ${unknown.join(', ')} (${FAULT_TARGETS.join(', ')})`);
    if (targets.length > 2) throw new Error(`fault "${entry}": at most two targets at once`);
    if (new Set(targets).size !== targets.length) throw new Error(`fault "${entry}": a target named twice`);
    return { mode, targets: targets as FaultTarget[] };
  });
}
