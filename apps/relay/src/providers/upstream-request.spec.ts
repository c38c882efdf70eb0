import { CHANNEL_TYPES, catalogChannelV1 } from '@tollgate/contracts';
import { aChannel } from '../../test/support/fixtures';
import { channelTarget } from './upstream-request';

describe('channelTarget', () => {
  it('carries the channel base URL, the decrypted key, the mapped model and its api_version', () => {
    const channel = aChannel({ base_url: 'https://a.example', api_version: ' 2025-04-01-preview ' });
    expect(channelTarget(channel, 'key', 'deployment')).toEqual({
      baseUrl: 'https://a.example',
      apiKey: 'key',
      upstreamModel: 'deployment',
      apiVersion: '2025-04-01-preview',
    });
  });

  it('leaves the api-version to the adapter when the channel sets none or an empty one', () => {
    expect(channelTarget(aChannel(), 'key', 'm')).not.toHaveProperty('apiVersion');
    expect(channelTarget(aChannel({ api_version: '  ' }), 'key', 'm')).not.toHaveProperty('apiVersion');
  });

  it('reads api_version from catalog.channel entities that have it, and accepts entities without it', () => {
    const { api_version: _absent, ...withoutVersion } = aChannel({ type: CHANNEL_TYPES.azure });
    expect(catalogChannelV1.parse(withoutVersion).api_version).toBeUndefined();
    const parsed = catalogChannelV1.parse({ ...withoutVersion, api_version: '2024-06-01' });
    expect(channelTarget(parsed, 'key', 'm').apiVersion).toBe('2024-06-01');
  });
});
