/**
 * A scenarios file's side of scenario-process.ts. Forked with an IPC channel, it answers each
 * `{ scenario, args }` it is sent with `{ result }` or `{ error }`, one at a time, and ends with the
 * channel. Run by hand (`node -r ts-register.js <file> <scenario> <args…>`), it runs the one
 * scenario named, prints its result as JSON and exits.
 */
export interface ScenarioRequest {
  scenario: string;
  args: string[];
}

export type ScenarioReply = { result: unknown } | { error: string };

export type Scenarios = Record<string, (...args: string[]) => Promise<unknown>>;

const describe = (error: unknown) =>
  error instanceof Error ? (error.stack ?? error.message) : String(error);

export function serveScenarios(file: string, scenarios: Scenarios): void {
  const send = process.send?.bind(process);
  if (send === undefined) return runOnce(file, scenarios);
  process.once('disconnect', () => process.exit(0));
  process.on('message', ({ scenario, args }: ScenarioRequest) => {
    const run = scenarios[scenario];
    const answer = run === undefined ? Promise.reject(new Error(`no scenario ${scenario}`)) : run(...args);
    void answer.then(
      (result: unknown) => send({ result } satisfies ScenarioReply),
      (error: unknown) => send({ error: describe(error) } satisfies ScenarioReply),
    );
  });
}

function runOnce(file: string, scenarios: Scenarios): void {
  const [scenario, ...args] = process.argv.slice(2);
  const run = scenario === undefined ? undefined : scenarios[scenario];
  if (run === undefined || args.length === 0) {
    console.error(`usage: ${file} <${Object.keys(scenarios).join('|')}> <args…>`);
    process.exit(2);
  }
  run(...args).then(
    (result) => process.stdout.write(JSON.stringify(result), () => process.exit(0)),
    (error: unknown) => {
      console.error(describe(error));
      process.exit(1);
    },
  );
}
