/**
 * A request the adapter cannot express for its upstream (for example a tool call whose arguments
 * are not JSON). The relay answers it as the client's mistake (400).
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

/** The upstream reported an error inside a stream that had already started (relay: 502). */
export class UpstreamStreamError extends Error {
  constructor(
    readonly errorType: string,
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamStreamError';
  }
}

/** The channel's family has no such endpoint (for example Anthropic and image generation). */
export class UnsupportedOperationError extends Error {
  constructor(
    readonly family: string,
    readonly operation: string,
  ) {
    super(`${family} channels do not serve ${operation}`);
    this.name = 'UnsupportedOperationError';
  }
}

/** The channel has no base URL and its provider has no public default (Azure, custom). */
export class MissingBaseUrlError extends Error {
  constructor(readonly provider: string) {
    super(`${provider} channels need a base_url`);
    this.name = 'MissingBaseUrlError';
  }
}
