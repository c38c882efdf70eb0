// Progress goes to stderr so that a caller can keep stdout for results.
export function log(message) {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}
