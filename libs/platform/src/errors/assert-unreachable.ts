/** Makes a switch exhaustive: adding a case to the union without handling it fails to compile. */
export const assertUnreachable = (value: never, what = 'value'): never => {
  throw new Error(`Unhandled ${what}: ${JSON.stringify(value)}`);
};
