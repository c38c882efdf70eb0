import {
  channelListQuerySchema,
  createChannelRequestSchema,
  isValidChannelOther,
  updateChannelRequestSchema,
} from './channel-requests';
import { ChannelStatus } from './channel-types';

const minimal = { type: 1, name: 'main', key: 'sk-one', models: 'gpt-4o' };

describe('channel requests', () => {
  it('fills new-api defaults for a plain channel body', () => {
    expect(createChannelRequestSchema.parse(minimal)).toEqual({
      keys: ['sk-one'],
      channel: {
        type: 1,
        name: 'main',
        base_url: '',
        models: ['gpt-4o'],
        model_mapping: {},
        group: ['default'],
        priority: 0,
        weight: 0,
        tag: '',
        status: ChannelStatus.Enabled,
        auto_ban: true,
        test_model: '',
        max_concurrency: 0,
        other: '',
        stream_headers_timeout: null,
      },
    });
  });

  it("takes a channel's own stream headers timeout of 1 to 600 whole seconds; empty, 0 or null is relay's default", () => {
    const timeoutOf = (value: unknown) =>
      updateChannelRequestSchema.parse({ id: 1, stream_headers_timeout: value }).stream_headers_timeout;
    expect(timeoutOf(1)).toBe(1);
    expect(timeoutOf(600)).toBe(600);
    expect(timeoutOf('')).toBeNull();
    expect(timeoutOf(0)).toBeNull();
    expect(timeoutOf(null)).toBeNull();
    expect(
      createChannelRequestSchema.parse({ ...minimal, stream_headers_timeout: 120 }).channel,
    ).toMatchObject({
      stream_headers_timeout: 120,
    });
    for (const wrong of [601, -1, 2.5, '30']) {
      const refused = updateChannelRequestSchema.safeParse({ id: 1, stream_headers_timeout: wrong });
      expect(refused.success).toBe(false);
      expect(refused.error?.issues[0]?.message).toBe(
        "must be a whole number of seconds from 1 to 600, or empty for relay's default",
      );
    }
  });

  it('reads comma lists, JSON mappings and 0/1 flags, trimming and deduplicating', () => {
    const { channel } = createChannelRequestSchema.parse({
      ...minimal,
      models: ' gpt-4o ,gpt-4o-mini,,gpt-4o\n',
      group: '',
      model_mapping: '{"gpt-4o": "gpt-4o-2024-08-06"}',
      auto_ban: 0,
      base_url: 'https://api.example.test/v1//',
    });
    expect(channel).toMatchObject({
      models: ['gpt-4o', 'gpt-4o-mini'],
      group: ['default'],
      model_mapping: { 'gpt-4o': 'gpt-4o-2024-08-06' },
      auto_ban: false,
      base_url: 'https://api.example.test/v1',
    });
  });

  it('splits a batch into one key per non-empty line and refuses a line break in single mode', () => {
    const batch = createChannelRequestSchema.parse({
      mode: 'batch',
      channel: { ...minimal, key: 'sk-a\r\n\n  sk-b  \n' },
    });
    expect(batch.keys).toEqual(['sk-a', 'sk-b']);
    expect(
      createChannelRequestSchema.safeParse({ mode: 'single', channel: { ...minimal, key: 'sk-a\nsk-b' } })
        .success,
    ).toBe(false);
  });

  it('needs a base URL for Azure and custom channels only', () => {
    expect(createChannelRequestSchema.safeParse({ ...minimal, type: 3 }).success).toBe(false);
    expect(createChannelRequestSchema.safeParse({ ...minimal, type: 8 }).success).toBe(false);
    expect(
      createChannelRequestSchema.safeParse({ ...minimal, type: 8, base_url: 'http://10.0.0.5:8000' }).success,
    ).toBe(true);
  });

  it("takes an Azure channel's API version in `other`, and only a date-shaped one", () => {
    const azure = { ...minimal, type: 3, base_url: 'https://x.openai.azure.test' };
    for (const other of ['', '2024-10-21', '2025-04-01-preview'])
      expect(createChannelRequestSchema.safeParse({ ...azure, other }).success).toBe(true);
    for (const other of ['latest', '2024-10', '2024-10-21-beta'])
      expect(createChannelRequestSchema.safeParse({ ...azure, other }).success).toBe(false);
    expect(createChannelRequestSchema.safeParse({ ...minimal, other: 'latest' }).success).toBe(true);
    expect(isValidChannelOther(3, 'latest')).toBe(false);
    expect(isValidChannelOther(1, 'latest')).toBe(true);
  });

  it('treats an empty key in an update as "keep the stored key"', () => {
    expect(updateChannelRequestSchema.parse({ id: 4, key: '' })).toEqual({ id: 4 });
    expect(updateChannelRequestSchema.parse({ id: 4, key: ' sk-new ' })).toEqual({ id: 4, key: 'sk-new' });
  });

  it("reads new-api's list query", () => {
    expect(
      channelListQuerySchema.parse({ p: '3', page_size: '20', id_sort: 'true', tag_mode: 'false' }),
    ).toEqual({
      page: 3,
      pageSize: 20,
      idSort: true,
      tagMode: false,
      status: 'all',
      type: undefined,
    });
    expect(channelListQuerySchema.parse({})).toMatchObject({ page: 1, pageSize: 10, idSort: false });
  });
});
