/**
 * A request that cannot be carried between a client's dialect, the canonical shape and an upstream's
 * (for example a tool call whose arguments are not JSON). The relay answers it as the client's
 * mistake (400).
 */
export class UntranslatableRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UntranslatableRequestError';
  }
}

/** The upstream answered 2xx with a body that does not have its documented shape (relay: 502). */
export class MalformedUpstreamResponseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedUpstreamResponseError';
  }
}
