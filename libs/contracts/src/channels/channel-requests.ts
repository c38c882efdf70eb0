import { z } from 'zod';
import { groupNameSchema } from '../users/roles';
import { newApiPageParam } from '../http/envelope';
import {
  CHANNEL_TYPES,
  CHANNEL_TYPES_NEEDING_BASE_URL,
  CHANNEL_TYPE_NUMBERS,
  ChannelStatus,
  type ChannelType,
} from './channel-types';

export const CHANNEL_NAME_MAX_LENGTH = 100;
export const CHANNEL_KEY_MAX_LENGTH = 4096;
/** Keys one batch create may carry (one channel each). */
export const CHANNEL_BATCH_MAX_KEYS = 500;
export const CHANNEL_MAX_MODELS = 1000;
export const CHANNEL_MAX_GROUPS = 64;
export const CHANNEL_PAGE_DEFAULT_SIZE = 10;
export const CHANNEL_MAX_CONCURRENCY = 1_000_000;
export const CHANNEL_DEFAULT_GROUP = 'default';
/** Bounds of a channel's own stream headers timeout, in seconds. */
export const CHANNEL_STREAM_HEADERS_TIMEOUT_MIN_SECONDS = 1;
export const CHANNEL_STREAM_HEADERS_TIMEOUT_MAX_SECONDS = 600;

const INT32_MAX = 2_147_483_647;
const NO_CONTROL_CHARACTERS = /^[^\p{Cc}\p{Cf}]*$/u;
/** Control characters other than line breaks, which separate the keys of a batch. */
const NO_CONTROL_BUT_LINE_BREAKS = /^[^\p{Cf}\x00-\x09\x0B\x0C\x0E-\x1F\x7F]*$/u;
/** Model ids as providers spell them: `gpt-4o-2024-08-06`, `meta-llama/llama-3.1-8b:free`, `claude@2024`. */
const MODEL_NAME = /^[\w.:/@+-]+$/;
const TAG = /^[\p{L}\p{N} _.:/-]*$/u;

const modelName = z
  .string({ invalid_type_error: 'must be text' })
  .trim()
  .min(1, 'must not be empty')
  .max(128, 'must be at most 128 characters')
  .regex(MODEL_NAME, 'must be a model id (letters, digits and _ . : / @ + -)');

/** A comma- or newline-separated list (new-api sends strings) or an array, trimmed, deduplicated. */
const listOf = (entry: z.ZodType<string>, maxEntries: number) =>
  z
    .union([z.string().max(65_536, 'is too long'), z.array(z.string().max(256)).max(maxEntries)], {
      errorMap: () => ({ message: 'must be a comma-separated list or an array of text' }),
    })
    .transform((value) => [
      ...new Set(
        (Array.isArray(value) ? value : value.split(/[,\n]/))
          .map((item) => item.trim())
          .filter((item) => item.length > 0),
      ),
    ])
    .pipe(z.array(entry).max(maxEntries, `must list at most ${maxEntries} entries`));

const modelMappingObject = z
  .record(modelName, modelName, { invalid_type_error: 'must map model ids to model ids' })
  .refine((mapping) => Object.keys(mapping).length <= CHANNEL_MAX_MODELS, 'has too many entries');

/** new-api sends the mapping as JSON text; an object is taken too; empty text or null means none. */
const modelMapping = z.union(
  [
    z
      .string()
      .max(65_536, 'is too long')
      .transform((text, context): unknown => {
        if (text.trim() === '') return {};
        try {
          return JSON.parse(text);
        } catch {
          context.addIssue({ code: z.ZodIssueCode.custom, message: 'must be a JSON object' });
          return z.NEVER;
        }
      })
      .pipe(modelMappingObject),
    z.null().transform(() => ({})),
    modelMappingObject,
  ],
  { errorMap: () => ({ message: 'must be a JSON object mapping model ids to model ids' }) },
);

const baseUrl = z
  .string({ invalid_type_error: 'must be text' })
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .refine((value) => value === '' || /^https?:\/\/[^\s<>"'`]+$/.test(value), 'must be an http(s) URL')
  .refine((value) => value === '' || URL.canParse(value), 'must be an http(s) URL')
  .transform((value) => value.replace(/\/+$/, ''));

const intIn = (min: number, max: number) =>
  z
    .number({ invalid_type_error: 'must be a number' })
    .int('must be a whole number')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

/** new-api sends 1/0; true/false is taken too. */
const flag = z.union([z.boolean(), z.literal(0), z.literal(1)], {
  errorMap: () => ({ message: 'must be true, false, 1 or 0' }),
});

const channelType = z.custom<ChannelType>(
  (value) => typeof value === 'number' && (CHANNEL_TYPE_NUMBERS as readonly number[]).includes(value),
  { message: `must be one of the channel types ${CHANNEL_TYPE_NUMBERS.join(', ')}` },
);

/** An administrator sets a channel enabled or disabled; auto-disabling is the system's. */
const settableStatus = z.union(
  [z.literal(ChannelStatus.Enabled), z.literal(ChannelStatus.ManuallyDisabled)],
  {
    errorMap: () => ({ message: 'must be 1 (enabled) or 2 (disabled)' }),
  },
);

const STREAM_HEADERS_TIMEOUT_MESSAGE = `must be a whole number of seconds from ${CHANNEL_STREAM_HEADERS_TIMEOUT_MIN_SECONDS} to ${CHANNEL_STREAM_HEADERS_TIMEOUT_MAX_SECONDS}, or empty for relay's default`;

/** A channel's own stream headers timeout in seconds; null, '' or 0 = relay's global one. */
const streamHeadersTimeout = z.union(
  [
    z.null(),
    z.literal('').transform(() => null),
    z.literal(0).transform(() => null),
    z
      .number()
      .int(STREAM_HEADERS_TIMEOUT_MESSAGE)
      .min(CHANNEL_STREAM_HEADERS_TIMEOUT_MIN_SECONDS, STREAM_HEADERS_TIMEOUT_MESSAGE)
      .max(CHANNEL_STREAM_HEADERS_TIMEOUT_MAX_SECONDS, STREAM_HEADERS_TIMEOUT_MESSAGE),
  ],
  { errorMap: () => ({ message: STREAM_HEADERS_TIMEOUT_MESSAGE }) },
);

const editableFields = {
  type: channelType,
  name: z
    .string({ invalid_type_error: 'must be text' })
    .trim()
    .min(1, 'must not be empty')
    .max(CHANNEL_NAME_MAX_LENGTH, `must be at most ${CHANNEL_NAME_MAX_LENGTH} characters`)
    .regex(NO_CONTROL_CHARACTERS, 'must not contain control characters'),
  base_url: baseUrl,
  models: listOf(modelName, CHANNEL_MAX_MODELS),
  model_mapping: modelMapping,
  group: listOf(groupNameSchema, CHANNEL_MAX_GROUPS),
  priority: intIn(-INT32_MAX, INT32_MAX),
  weight: intIn(0, INT32_MAX),
  tag: z
    .string({ invalid_type_error: 'must be text' })
    .trim()
    .max(64, 'must be at most 64 characters')
    .regex(TAG, 'must be letters, digits, spaces and _ . : / -'),
  status: settableStatus,
  auto_ban: flag.transform((value) => value === true || value === 1),
  test_model: z.union([z.literal(''), modelName]),
  max_concurrency: intIn(0, CHANNEL_MAX_CONCURRENCY),
  /** new-api's per-type extra setting; for Azure, the API version ('' = relay's default). */
  other: z
    .string({ invalid_type_error: 'must be text' })
    .trim()
    .max(64, 'must be at most 64 characters')
    .regex(NO_CONTROL_CHARACTERS, 'must not contain control characters'),
  stream_headers_timeout: streamHeadersTimeout,
};

const AZURE_API_VERSION = /^\d{4}-\d{2}-\d{2}(-preview)?$/;
export const AZURE_API_VERSION_MESSAGE = 'must be an Azure API version such as 2024-10-21 (or empty)';

/** Whether `other` suits a channel of this type: an Azure channel's is its API version, if any. */
export function isValidChannelOther(type: ChannelType, other: string): boolean {
  return type !== CHANNEL_TYPES.azure || other === '' || AZURE_API_VERSION.test(other);
}

const singleKey = z
  .string({ invalid_type_error: 'must be text' })
  .trim()
  .max(CHANNEL_KEY_MAX_LENGTH, `must be at most ${CHANNEL_KEY_MAX_LENGTH} characters`)
  .regex(NO_CONTROL_CHARACTERS, 'must be one line without control characters');

const channelFields = z
  .object({
    ...editableFields,
    models: editableFields.models.refine((models) => models.length > 0, 'must name at least one model'),
    model_mapping: editableFields.model_mapping.default({}),
    group: editableFields.group
      .transform((groups) => (groups.length > 0 ? groups : [CHANNEL_DEFAULT_GROUP]))
      .default(CHANNEL_DEFAULT_GROUP),
    base_url: editableFields.base_url.default(''),
    priority: editableFields.priority.default(0),
    weight: editableFields.weight.default(0),
    tag: editableFields.tag.default(''),
    status: editableFields.status.default(ChannelStatus.Enabled),
    auto_ban: editableFields.auto_ban.default(true),
    test_model: editableFields.test_model.default(''),
    max_concurrency: editableFields.max_concurrency.default(0),
    other: editableFields.other.default(''),
    stream_headers_timeout: editableFields.stream_headers_timeout.default(null),
    key: z
      .string({ required_error: 'is required', invalid_type_error: 'must be text' })
      .max(CHANNEL_BATCH_MAX_KEYS * (CHANNEL_KEY_MAX_LENGTH + 2), 'is too long')
      .regex(NO_CONTROL_BUT_LINE_BREAKS, 'must not contain control characters'),
  })
  .superRefine((channel, context) => {
    if (CHANNEL_TYPES_NEEDING_BASE_URL.includes(channel.type) && channel.base_url === '') {
      context.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['base_url'],
        message: 'is required for this channel type',
      });
    }
    if (!isValidChannelOther(channel.type, channel.other)) {
      context.addIssue({ code: z.ZodIssueCode.custom, path: ['other'], message: AZURE_API_VERSION_MESSAGE });
    }
  });

/** new-api's newer clients wrap the channel as `{mode, channel}`; older ones send the channel itself. */
const unwrapCreateBody = (body: unknown): unknown =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && 'channel' in body
    ? body
    : { channel: body };

/**
 * POST /api/channel/: one channel (`mode: 'single'`), or one channel per line of `key` (`mode: 'batch'`),
 * all alike otherwise. The output carries the keys apart from the other fields.
 */
export const createChannelRequestSchema = z.preprocess(
  unwrapCreateBody,
  z
    .object({
      mode: z
        .enum(['single', 'batch'], { errorMap: () => ({ message: 'must be "single" or "batch"' }) })
        .default('single'),
      channel: channelFields,
    })
    .transform(({ mode, channel: { key, ...channel } }, context) => {
      const lines = mode === 'single' ? [key] : key.split(/\r?\n/);
      const keys = lines.map((line) => line.trim()).filter((line) => line.length > 0);
      const issue = (message: string) => {
        context.addIssue({ code: z.ZodIssueCode.custom, path: ['channel', 'key'], message });
        return z.NEVER;
      };
      if (keys.length === 0) return issue('is required');
      if (keys.length > CHANNEL_BATCH_MAX_KEYS)
        return issue(`may hold at most ${CHANNEL_BATCH_MAX_KEYS} keys`);
      for (const one of keys) {
        const checked = singleKey.safeParse(one);
        if (!checked.success) return issue(checked.error.issues[0]!.message);
      }
      return { keys, channel };
    }),
);
export type CreateChannelRequest = z.output<typeof createChannelRequestSchema>;
export type NewChannelFields = CreateChannelRequest['channel'];

/** PUT /api/channel: a partial update of channel `id`; an empty or absent `key` keeps the stored one. */
export const updateChannelRequestSchema = z.object({
  id: z
    .number({ required_error: 'is required', invalid_type_error: 'must be a channel id' })
    .int('must be a channel id')
    .positive('must be a channel id')
    .max(INT32_MAX, 'must be a channel id'),
  type: editableFields.type.optional(),
  name: editableFields.name.optional(),
  key: singleKey.transform((key) => (key === '' ? undefined : key)).optional(),
  base_url: editableFields.base_url.optional(),
  models: editableFields.models
    .refine((models) => models.length > 0, 'must name at least one model')
    .optional(),
  model_mapping: editableFields.model_mapping.optional(),
  group: editableFields.group
    .transform((groups) => (groups.length > 0 ? groups : [CHANNEL_DEFAULT_GROUP]))
    .optional(),
  priority: editableFields.priority.optional(),
  weight: editableFields.weight.optional(),
  tag: editableFields.tag.optional(),
  status: editableFields.status.optional(),
  auto_ban: editableFields.auto_ban.optional(),
  test_model: editableFields.test_model.optional(),
  max_concurrency: editableFields.max_concurrency.optional(),
  other: editableFields.other.optional(),
  stream_headers_timeout: editableFields.stream_headers_timeout.optional(),
});
export type UpdateChannelRequest = z.output<typeof updateChannelRequestSchema>;

const queryFlag = z
  .enum(['true', 'false', '1', '0'], { errorMap: () => ({ message: 'must be true or false' }) })
  .transform((value) => value === 'true' || value === '1');

const listQueryFields = {
  p: newApiPageParam(INT32_MAX).optional(),
  page: z.coerce.number().int().min(1).max(INT32_MAX).optional(),
  page_size: z.coerce.number().int().min(1).max(1000).optional(),
  size: z.coerce.number().int().min(1).max(1000).optional(),
  id_sort: queryFlag.default('false'),
  tag_mode: queryFlag.default('false'),
  /** `enabled`: status 1 only; `disabled`: manually or automatically disabled. */
  status: z.enum(['enabled', 'disabled', 'all']).default('all'),
  type: z.coerce
    .number()
    .int()
    .refine((value) => (CHANNEL_TYPE_NUMBERS as readonly number[]).includes(value), 'is not a channel type')
    .optional(),
};

const toListQuery = (query: {
  p?: number | undefined;
  page?: number | undefined;
  page_size?: number | undefined;
  size?: number | undefined;
  id_sort: boolean;
  tag_mode: boolean;
  status: 'enabled' | 'disabled' | 'all';
  type?: number | undefined;
}) => ({
  page: query.p ?? query.page ?? 1,
  pageSize: query.page_size ?? query.size ?? CHANNEL_PAGE_DEFAULT_SIZE,
  idSort: query.id_sort,
  tagMode: query.tag_mode,
  status: query.status,
  type: query.type,
});

/** GET /api/channel/?p&page_size&id_sort&tag_mode (and new-api's `status`, `type` filters). */
export const channelListQuerySchema = z.object(listQueryFields).transform(toListQuery);
export type ChannelListQuery = z.output<typeof channelListQuerySchema>;

/** GET /api/channel/search?keyword&group&model, paged and ordered like the list. */
export const channelSearchQuerySchema = z
  .object({
    ...listQueryFields,
    keyword: z.string().trim().max(128).regex(NO_CONTROL_CHARACTERS).default(''),
    group: z.union([z.literal(''), groupNameSchema]).default(''),
    model: z.string().trim().max(128).regex(NO_CONTROL_CHARACTERS).default(''),
  })
  .transform((query) => ({
    ...toListQuery(query),
    keyword: query.keyword,
    group: query.group,
    model: query.model,
  }));
export type ChannelSearchQuery = z.output<typeof channelSearchQuerySchema>;

/** GET /api/channel/test/:id?model: the model to test with (else the channel's test model, else its first). */
export const channelTestQuerySchema = z.object({ model: modelName.optional() });

export const channelIdSchema = z.coerce.number().int().positive().max(INT32_MAX);
