import { streamHeadersTimeoutMs } from './upstream-client';

describe("a streamed attempt's headers deadline", () => {
  it("is relay's global RELAY_UPSTREAM_STREAM_HEADERS_TIMEOUT_MS for a channel without its own", () => {
    expect(streamHeadersTimeoutMs(undefined, 30_000)).toBe(30_000);
  });

  it("is the channel's own stream_headers_timeout_seconds, longer or shorter than the global one", () => {
    expect(streamHeadersTimeoutMs(120, 30_000)).toBe(120_000);
    expect(streamHeadersTimeoutMs(5, 30_000)).toBe(5_000);
  });
});
