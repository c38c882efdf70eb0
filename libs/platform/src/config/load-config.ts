import { z } from 'zod';
import { isSecretSchema } from './secret';

export type Env = Readonly<Record<string, string | undefined>>;

export interface ConfigProblem {
  readonly variable: string;
  readonly reason: string;
}

/** Every problem of a configuration at once, so one start-up attempt is enough to fix them all. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(
      `Invalid configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n` +
        problems.map(({ variable, reason }) => `  - ${variable}: ${reason}`).join('\n'),
    );
    this.name = 'ConfigError';
  }
}

/** Issue kinds whose zod message never repeats the value given; for secrets, any other says only "invalid". */
const VALUE_FREE_ISSUES = new Set<z.ZodIssueCode>([
  z.ZodIssueCode.invalid_type,
  z.ZodIssueCode.too_small,
  z.ZodIssueCode.too_big,
  z.ZodIssueCode.invalid_string,
]);

const reasonFor = (issue: z.ZodIssue, secret: boolean): string => {
  if (issue.code === z.ZodIssueCode.invalid_type && issue.received === z.ZodParsedType.undefined)
    return 'is missing';
  if (secret && !VALUE_FREE_ISSUES.has(issue.code)) return 'has an invalid value (not shown: secret)';
  return issue.message;
};

const secretKeysByConfig = new WeakMap<object, ReadonlySet<string>>();

/** The fields of a configuration returned by loadConfig that its schema marks secret. */
export const secretKeysOf = (config: object): ReadonlySet<string> =>
  secretKeysByConfig.get(config) ?? new Set();

/**
 * Validates the environment against the schema once, at start-up. Empty values count as unset. Throws a
 * ConfigError naming every bad or missing variable; secret values never appear in it.
 */
export const loadConfig = <S extends z.AnyZodObject>(
  schema: S,
  env: Env = process.env,
): Readonly<z.output<S>> => {
  const shape = schema.shape as Record<string, z.ZodTypeAny>;
  const secrets = new Set(Object.keys(shape).filter((key) => isSecretSchema(shape[key] as z.ZodTypeAny)));
  const input = Object.fromEntries(
    Object.keys(shape).map((key) => [key, env[key] === '' ? undefined : env[key]]),
  );
  const result = schema.safeParse(input);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const variable = issue.path.length ? issue.path.join('.') : '(configuration)';
        return { variable, reason: reasonFor(issue, secrets.has(String(issue.path[0]))) };
      }),
    );
  }
  const config = Object.freeze(result.data) as Readonly<z.output<S>>;
  secretKeysByConfig.set(config, secrets);
  return config;
};
