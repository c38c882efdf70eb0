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
