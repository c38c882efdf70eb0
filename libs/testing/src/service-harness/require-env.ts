/** How to get the real infrastructure's variables into the environment. */
export const START_INFRASTRUCTURE_HINT =
  'start the infrastructure with `bash scripts/infra.sh up` and load it with `eval "$(bash scripts/infra.sh env)"`';

/**
 * The values of `names` from the environment. Tests that need infrastructure fail, never skip,
 * without it: the error names every missing variable at once, then says how to set them.
 */
export function requireEnv<Name extends string>(
  names: readonly Name[],
  hint = START_INFRASTRUCTURE_HINT,
): Record<Name, string> {
  const missing = names.filter((name) => !process.env[name]);
  if (missing.length > 0)
    throw new Error(`${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set: ${hint}`);
  return Object.fromEntries(names.map((name) => [name, process.env[name]])) as Record<Name, string>;
}
