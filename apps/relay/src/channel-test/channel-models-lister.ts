import type { ChannelModelsRequest, ChannelModelsResult } from '@tollgate/contracts';
import { request } from 'undici';
import { adapterForChannelType, channelTarget } from '../providers';
import { upstreamHttpFailure } from '../routing';
import type { ChannelKeys } from '../upstream/channel-keys';
import { readLimited } from '../upstream/upstream-client';

const LIST_TIMEOUT_MS = 15_000;
const BODY_LIMIT = 4 * 1024 * 1024;

/**
 * The models a channel's key may use, as its upstream lists them (GET /v1/models and the like), for
 * admin's "fetch models". Straight to the upstream: no routing, no billing.
 */
export class ChannelModelsLister {
  constructor(private readonly keys: ChannelKeys) {}

  async list({ channel }: ChannelModelsRequest): Promise<ChannelModelsResult> {
    const failed = (message: string): ChannelModelsResult => ({ success: false, models: [], message });
    try {
      const listing = adapterForChannelType(channel.type).modelsListing;
      if (!listing) return failed('This channel type has no model list: enter the models by hand');
      const target = channelTarget(channel, this.keys.keyOf(channel), '');
      const { url, headers } = listing.request(target);
      const response = await request(url, {
        method: 'GET',
        headers: { accept: 'application/json', ...headers },
        signal: AbortSignal.timeout(LIST_TIMEOUT_MS),
      });
      const text = await readLimited(response.body, BODY_LIMIT);
      if (response.statusCode < 200 || response.statusCode >= 300) {
        const failure = upstreamHttpFailure(response.statusCode, text);
        return failed(failure.message ?? `The upstream answered ${response.statusCode}`);
      }
      const models = [...new Set(listing.parse(JSON.parse(text)))].sort();
      return { success: true, models, message: 'ok' };
    } catch (error) {
      return failed((error as Error).message);
    }
  }
}
