import type { AuditActor } from '@tollgate/persistence';
import { Injectable } from '@nestjs/common';
import {
  AZURE_API_VERSION_MESSAGE,
  CHANNEL_TYPES_NEEDING_BASE_URL,
  ChannelStatus,
  ErrorCode,
  isValidChannelOther,
  CHANNEL_TEST_ERROR_MAX_LENGTH,
  type ChannelAutoDisableRequest,
  type ChannelListQuery,
  type ChannelPage,
  type ChannelSearchQuery,
  type ChannelStatusResult,
  type ChannelModelsResult,
  type ChannelTestResult,
  type ChannelView,
  type CreateChannelRequest,
  type UpdateChannelRequest,
} from '@tollgate/contracts';
import {
  AppException,
  DEFAULT_LOCALE,
  InjectServiceConfig,
  refusedRangeOf,
  type Locale,
} from '@tollgate/platform';
import { localizedException } from '../i18n/messages';
import type { AdminConfig } from '../config';
import { catalogChannel } from './channel-events';
import { ChannelKeySealer } from './channel-key';
import { channelView } from './channel-view';
import type { Channel } from './channel.entity';
import { ChannelsRepository, type ChannelFilter } from './channels.repository';
import { RelayChannelBreakers } from './relay-channel-breakers';
import { RelayChannelModels } from './relay-channel-models';
import { RelayChannelTester } from './relay-channel-tester';

const NO_CONTROL_CHARACTERS = /[\p{Cc}\p{Cf}]+/gu;

/** Refuses a base URL whose host is in a non-public range the operator has not allowed. */
function checkBaseUrl(baseUrl: string, config: AdminConfig, locale: Locale): void {
  const refused = refusedRangeOf(baseUrl, config.CHANNEL_BASE_URL_ALLOWED_RANGES);
  if (refused) {
    throw localizedException(ErrorCode.ValidationFailed, 'channel_base_url_range_refused', locale, {
      range: refused,
    });
  }
}

const notFound = (locale: Locale) => localizedException(ErrorCode.NotFound, 'channel_not_found', locale);

const isSearch = (query: ChannelListQuery | ChannelSearchQuery): query is ChannelSearchQuery =>
  'keyword' in query;

/** The model a test uses: the one asked for, else the channel's test model, else its first model. */
export const testModelOf = (channel: Channel, requested?: string): string =>
  requested ?? (channel.testModel || channel.models[0] || '');

/** What a failed test leaves on the channel: relay's message, one line, cut short; null when it passed. */
export function testErrorOf(result: ChannelTestResult): string | null {
  if (result.success) return null;
  const message = result.message.replace(NO_CONTROL_CHARACTERS, ' ').trim() || 'Test failed';
  return message.length > CHANNEL_TEST_ERROR_MAX_LENGTH
    ? `${message.slice(0, CHANNEL_TEST_ERROR_MAX_LENGTH - 1)}…`
    : message;
}

/** Channels: the admin API, the system's own status changes, and tests through relay. */
@Injectable()
export class ChannelsService {
  constructor(
    private readonly channels: ChannelsRepository,
    private readonly sealer: ChannelKeySealer,
    private readonly tester: RelayChannelTester,
    private readonly modelLists: RelayChannelModels,
    private readonly breakers: RelayChannelBreakers,
    @InjectServiceConfig() private readonly config: AdminConfig,
  ) {}

  async list(query: ChannelListQuery | ChannelSearchQuery): Promise<ChannelPage> {
    const filter: ChannelFilter = {
      status: query.status,
      type: query.type,
      ...(isSearch(query) ? { keyword: query.keyword, group: query.group, model: query.model } : {}),
    };
    const order = { idSort: query.idSort };
    const [slice, typeCounts, held] = await Promise.all([
      query.tagMode
        ? this.channels.tagPage(filter, order, query.page, query.pageSize)
        : this.channels.page(filter, order, query.page, query.pageSize),
      this.channels.typeCounts(filter),
      this.breakers.held(),
    ]);
    return {
      page: query.page,
      page_size: query.pageSize,
      total: slice.total,
      items: slice.items.map((channel) => channelView(channel, held.get(channel.id) ?? null)),
      type_counts: typeCounts,
    };
  }

  async get(id: number, locale: Locale): Promise<ChannelView> {
    const [channel, held] = await Promise.all([this.channels.find(id), this.breakers.held()]);
    if (!channel) throw notFound(locale);
    return channelView(channel, held.get(channel.id) ?? null);
  }

  /** One channel per key (a batch gives several keys), all created or none. */
  async create(actor: AuditActor, request: CreateChannelRequest, locale: Locale): Promise<ChannelView[]> {
    checkBaseUrl(request.channel.base_url, this.config, locale);
    const created = await this.channels.create(
      request.keys.map((key) => ({ ...request.channel, ...this.sealer.seal(key) })),
      actor,
    );
    return created.map((channel) => channelView(channel));
  }

  async update(actor: AuditActor, request: UpdateChannelRequest, locale: Locale): Promise<ChannelView> {
    const { id, ...changes } = request;
    if (changes.base_url !== undefined) checkBaseUrl(changes.base_url, this.config, locale);
    const sealed = changes.key === undefined ? undefined : this.sealer.seal(changes.key);
    const channel = await this.channels.modify(
      id,
      (found) => {
        if (changes.type !== undefined) found.type = changes.type;
        if (changes.name !== undefined) found.name = changes.name;
        if (sealed) {
          found.keyEncrypted = sealed.keyEncrypted;
          found.keyMasked = sealed.keyMasked;
        }
        if (changes.base_url !== undefined) found.baseUrl = changes.base_url;
        if (changes.models !== undefined) found.models = changes.models;
        if (changes.model_mapping !== undefined) found.modelMapping = changes.model_mapping;
        if (changes.group !== undefined) found.groups = changes.group;
        if (changes.priority !== undefined) found.priority = changes.priority;
        if (changes.weight !== undefined) found.weight = changes.weight;
        if (changes.tag !== undefined) found.tag = changes.tag;
        if (changes.auto_ban !== undefined) found.autoBan = changes.auto_ban;
        if (changes.test_model !== undefined) found.testModel = changes.test_model;
        if (changes.max_concurrency !== undefined) found.maxConcurrency = changes.max_concurrency;
        if (changes.other !== undefined) found.other = changes.other;
        if (changes.stream_headers_timeout !== undefined) {
          found.streamHeadersTimeout = changes.stream_headers_timeout;
        }
        if (changes.status !== undefined && changes.status !== found.status) {
          found.status = changes.status;
          found.statusReason = '';
          found.statusChangedAt = new Date();
        }
        if (CHANNEL_TYPES_NEEDING_BASE_URL.includes(found.type) && found.baseUrl === '') {
          throw localizedException(ErrorCode.ValidationFailed, 'channel_base_url_required', locale);
        }
        if (!isValidChannelOther(found.type, found.other)) {
          throw new AppException(ErrorCode.ValidationFailed, `other: ${AZURE_API_VERSION_MESSAGE}`);
        }
        return true;
      },
      { actor, action: 'channel.update' },
    );
    if (!channel) throw notFound(locale);
    return channelView(channel);
  }

  async delete(actor: AuditActor, id: number, locale: Locale): Promise<void> {
    if (!(await this.channels.delete(id, actor))) throw notFound(locale);
  }

  /**
   * Relay found the channel's key invalid or its quota exhausted. Only an enabled channel with
   * auto_ban moves (to auto-disabled); any other state is left as it is, so repeated reports are harmless.
   */
  async autoDisable(id: number, request: ChannelAutoDisableRequest): Promise<ChannelStatusResult> {
    const reason = request.reason.replace(NO_CONTROL_CHARACTERS, ' ').trim();
    const channel = await this.channels.modify(id, (found) => {
      if (found.status !== ChannelStatus.Enabled || !found.autoBan) return false;
      found.status = ChannelStatus.AutoDisabled;
      found.statusReason = request.status_code ? `HTTP ${request.status_code}: ${reason}` : reason;
      found.statusChangedAt = new Date();
      return true;
    });
    // Relay's report, not a person's call: the default language.
    if (!channel) throw notFound(DEFAULT_LOCALE);
    return { id: channel.id, status: channel.status };
  }

  /**
   * One real request through the channel, by relay; the time it took is recorded on the channel.
   * Throws RelayUnavailableError when relay cannot be asked. `locale`: the caller's (the re-enable
   * job has none).
   */
  async test(
    id: number,
    model?: string,
    signal?: AbortSignal,
    locale: Locale = DEFAULT_LOCALE,
  ): Promise<ChannelTestResult> {
    const channel = await this.channels.find(id);
    if (!channel) throw notFound(locale);
    const testModel = testModelOf(channel, model);
    const result = await this.tester.test(
      { channel: catalogChannel(channel), ...(testModel ? { model: testModel } : {}) },
      signal,
    );
    await this.channels.recordTest(id, result.time_ms, new Date(), testErrorOf(result));
    return result;
  }

  /** The models the channel's upstream lists for its key (new-api's "fetch models"). */
  async upstreamModels(id: number, locale: Locale): Promise<ChannelModelsResult> {
    const channel = await this.channels.find(id);
    if (!channel) throw notFound(locale);
    return this.modelLists.list({ channel: catalogChannel(channel) });
  }

  /** Ids of the channels the system disabled, for the re-enable job. */
  autoDisabledIds(): Promise<number[]> {
    return this.channels.autoDisabledIds();
  }

  /** Re-enables a channel the system disabled; true when it moved (an administrator may have acted meanwhile). */
  async reenable(id: number): Promise<boolean> {
    let moved = false;
    await this.channels.modify(id, (found) => {
      if (found.status !== ChannelStatus.AutoDisabled) return false;
      found.status = ChannelStatus.Enabled;
      found.statusReason = '';
      found.statusChangedAt = new Date();
      moved = true;
      return true;
    });
    return moved;
  }
}
