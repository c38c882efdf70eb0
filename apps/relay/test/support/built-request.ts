import type { BuildUpstreamRequest } from '../../src/pipeline/upstream-dispatcher';
import { adapterForChannelType, type UpstreamHttpRequest } from '../../src/providers';

/**
 * The JSON body relay builds for a channel of `channelType` serving `upstreamModel`, from the
 * arguments its dispatcher was called with (the fourth builds the request for a channel's adapter).
 */
export function bodyBuiltFor(
  dispatchArgs: readonly unknown[],
  channelType: number,
  upstreamModel: string,
): Record<string, unknown> {
  const build = dispatchArgs[3] as BuildUpstreamRequest;
  const request = build(adapterForChannelType(channelType), {
    baseUrl: 'https://upstream.test',
    apiKey: 'k',
    upstreamModel,
  }) as UpstreamHttpRequest;
  return JSON.parse(request.body) as Record<string, unknown>;
}
