// The scripts' repeatable `--env NAME=VALUE` option, as an environment object.
export function envAssignments(assignments) {
  return Object.fromEntries(
    assignments.map((assignment) => {
      const at = assignment.indexOf('=');
      if (at < 1) throw new Error(`--env wants NAME=VALUE, got ${assignment}`);
      return [assignment.slice(0, at), assignment.slice(at + 1)];
    }),
  );
}
