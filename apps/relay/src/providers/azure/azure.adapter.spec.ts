import { CHANNEL_TYPES } from '@tollgate/contracts';
import { aChannel } from '../../../test/support/fixtures';
import { MissingBaseUrlError, UnsupportedOperationError } from '../provider-errors';
import { channelTarget, type ChannelTarget } from '../upstream-request';
import { azureAdapter, DEFAULT_AZURE_API_VERSION } from './azure.adapter';

const target: ChannelTarget = {
  baseUrl: 'https://contoso.openai.azure.com',
  apiKey: 'azure-key',
  upstreamModel: 'gpt-4o-prod',
  apiVersion: '2024-10-21',
};

describe('Azure OpenAI adapter', () => {
  it('calls the deployment named by the upstream model with api-key and api-version', () => {
    const request = azureAdapter.buildChatRequest(
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], stream: true },
      target,
    );
    expect(request.url).toBe(
      'https://contoso.openai.azure.com/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21',
    );
    expect(request.headers).toEqual({ 'content-type': 'application/json', 'api-key': 'azure-key' });
    expect(JSON.parse(request.body).stream_options).toEqual({ include_usage: true });
  });

  it('defaults the api-version and builds embeddings per deployment', () => {
    const request = azureAdapter.buildPassThroughRequest(
      'embeddings',
      { model: 'e', input: 'x' },
      {
        ...target,
        apiVersion: undefined,
      },
    );
    expect(request.url).toBe(
      `https://contoso.openai.azure.com/openai/deployments/gpt-4o-prod/embeddings?api-version=${DEFAULT_AZURE_API_VERSION}`,
    );
  });

  it('uses the api-version a channel sets, and the GA default for a channel without one', () => {
    const chat = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'Hi' }] };
    const channel = aChannel({
      type: CHANNEL_TYPES.azure,
      base_url: 'https://contoso.openai.azure.com',
      api_version: '2025-04-01-preview',
    });
    expect(azureAdapter.buildChatRequest(chat, channelTarget(channel, 'k', 'dep')).url).toBe(
      'https://contoso.openai.azure.com/openai/deployments/dep/chat/completions?api-version=2025-04-01-preview',
    );
    const { api_version: _version, ...unversioned } = channel;
    expect(azureAdapter.buildChatRequest(chat, channelTarget(unversioned, 'k', 'dep')).url).toContain(
      `?api-version=${DEFAULT_AZURE_API_VERSION}`,
    );
  });

  it('refuses the Responses API and channels without a base URL', () => {
    expect(() => azureAdapter.buildPassThroughRequest('responses', { model: 'a' }, target)).toThrow(
      UnsupportedOperationError,
    );
    expect(() =>
      azureAdapter.buildPassThroughRequest('embeddings', { model: 'a' }, { ...target, baseUrl: '' }),
    ).toThrow(MissingBaseUrlError);
  });
});
