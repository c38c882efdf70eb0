import type { Env } from './service-runtime';

/** A service's own variable for a setting, e.g. TOLLGATE_WORKERS_RELAY for TOLLGATE_WORKERS and relay. */
export const serviceVariable = (base: string, serviceName: string): string =>
  `${base}_${serviceName.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;

/**
 * A setting one environment gives every service: the service's own variable, else the shared `base`;
 * the variable's name and its trimmed value, or undefined when both are unset or blank.
 */
export function serviceSetting(
  env: Env,
  base: string,
  serviceName: string,
): { name: string; raw: string } | undefined {
  const name = [serviceVariable(base, serviceName), base].find((n) => env[n]?.trim());
  return name === undefined ? undefined : { name, raw: env[name]!.trim() };
}
