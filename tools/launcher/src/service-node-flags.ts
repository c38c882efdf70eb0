import type { ServiceName } from '@tollgate/contracts';

/**
 * V8 flags a service's own process starts with (distributed mode; the Docker image and the manifests
 * in deploy/ pass the same through NODE_OPTIONS, which test/integration/deploy-config.spec.ts checks).
 *
 * Gateway and relay allocate a few short-lived objects per call and little survives: with semi-spaces
 * of 32 MB instead of V8's 16 MB they scavenge half as often for the same work. bench/hot-path-cpu.mjs,
 * interleaved pairs: CPU per call −11 to −12 % at c=16 and −6 % at c=64 for both (bench/ANALYSIS.md,
 * "Semi-spaces of 32 MB for gateway and relay"). The cost is up to 32 MB more young generation each.
 * Auth, billing and admin, whose usage consumers decode every usage event (GC was a third of auth's and
 * admin's CPU): bench/full-platform-cpu.mjs at c=64, interleaved pairs, their CPU per call together
 * −0.004 ms (−9 %) (bench/ANALYSIS.md, "h115"). Chat does no per-call work in distributed mode.
 * Not in embedded mode, where they share one process with a memory target.
 */
const SERVICE_NODE_FLAGS: Partial<Record<ServiceName, readonly string[]>> = {
  gateway: ['--max-semi-space-size=32'],
  relay: ['--max-semi-space-size=32'],
  auth: ['--max-semi-space-size=32'],
  billing: ['--max-semi-space-size=32'],
  admin: ['--max-semi-space-size=32'],
};

export function serviceNodeFlags(service: string): readonly string[] {
  return SERVICE_NODE_FLAGS[service as ServiceName] ?? [];
}
