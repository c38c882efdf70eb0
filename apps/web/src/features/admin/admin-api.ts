import {
  pricingResponseSchema,
  configuredSecretsSchema,
  type ConfiguredSecrets,
  adminOverviewSchema,
  type AdminOverview,
  incidentPageSchema,
  type IncidentView,
  type CreateIncidentRequest,
  type UpdateIncidentRequest,
  dailyModelUsageSchema,
  type DailyModelUsage,
  logItemSchema,
  LOG_PAGE_DEFAULT_SIZE,
  promoSchema,
  type Promo,
  adminUserViewSchema,
  tokenViewSchema,
  channelPageSchema,
  ChannelStatus,
  channelTestAnswerSchema,
  channelViewSchema,
  pageSchema,
  type AdminUserView,
  type ChannelPage,
  type ChannelTestAnswer,
  type ChannelView,
  type ModelPricing,
  type UserAction,
  optionViewSchema,
  type OptionView,
  type CreateVersionRequest,
} from '@tollgate/contracts';
import { z } from 'zod';
import { api } from '../../api/client';
import type { LogExportFormat } from '../activity/activity-api';

/** SPEC §9: the user list's default size. */
export const ADMIN_USER_PAGE_SIZE = 10;
export const ADMIN_CHANNEL_PAGE_SIZE = 20;

const userPageSchema = pageSchema(adminUserViewSchema);
export type AdminUserPage = z.infer<typeof userPageSchema>;

/** The user list's filters: role, status (1 enabled, 2 disabled) and group; absent means any. */
export interface UserListFilter {
  role?: number;
  status?: number;
  group?: string;
}

export async function fetchUsers(
  keyword: string,
  page: number,
  filter: UserListFilter = {},
): Promise<AdminUserPage> {
  const query = { p: page, size: ADMIN_USER_PAGE_SIZE, ...filter };
  const data = keyword
    ? await api.data<unknown>('GET', '/user/search', { query: { ...query, keyword } })
    : await api.data<unknown>('GET', '/user/', { query });
  return userPageSchema.parse(data);
}

export interface UserChanges {
  display_name?: string;
  group?: string;
  quota?: number;
  /** Why the balance is set: kept in the ledger and the audit trail. */
  quota_reason?: string;
}

export async function fetchUser(id: number): Promise<AdminUserView> {
  return adminUserViewSchema.parse(await api.data<unknown>('GET', `/user/${id}`));
}

const tokenPageSchema = pageSchema(tokenViewSchema);

/** A user's API keys as the owner sees them, masked (`GET /api/user/:id/tokens`). */
export async function fetchUserTokens(id: number): Promise<z.infer<typeof tokenPageSchema>> {
  return tokenPageSchema.parse(
    await api.data<unknown>('GET', `/user/${id}/tokens`, { query: { p: 1, size: 100 } }),
  );
}

export async function updateUser(id: number, changes: UserChanges): Promise<AdminUserView> {
  return adminUserViewSchema.parse(await api.data<unknown>('PUT', '/user/', { body: { id, ...changes } }));
}

export async function manageUser(id: number, action: UserAction): Promise<void> {
  await api.send('POST', '/user/manage', { body: { id, action } });
}

/** The channel list's filters: a keyword (name, key's end, base URL…), a status, grouping by tag. */
export interface ChannelListFilter {
  keyword?: string;
  status?: 'enabled' | 'disabled';
  tag_mode?: boolean;
}

export async function fetchChannels(page: number, filter: ChannelListFilter = {}): Promise<ChannelPage> {
  const { keyword, ...rest } = filter;
  const query = { p: page, page_size: ADMIN_CHANNEL_PAGE_SIZE, id_sort: true, ...rest };
  return channelPageSchema.parse(
    keyword
      ? await api.data<unknown>('GET', '/channel/search', { query: { ...query, keyword } })
      : await api.data<unknown>('GET', '/channel/', { query }),
  );
}

/** Channels in all, enabled, and disabled by the system (relay or the health check), over every page. */
export interface ChannelCounts {
  total: number;
  enabled: number;
  autoDisabled: number;
}

/** The list API's largest page: the disabled channels are read in one, the others only counted. */
const CHANNEL_COUNT_PAGE = 1000;

export async function fetchChannelCounts(): Promise<ChannelCounts> {
  const page = async (status: 'all' | 'enabled' | 'disabled', pageSize: number) =>
    channelPageSchema.parse(
      await api.data<unknown>('GET', '/channel/', { query: { p: 1, page_size: pageSize, status } }),
    );
  const [all, enabled, disabled] = await Promise.all([
    page('all', 1),
    page('enabled', 1),
    page('disabled', CHANNEL_COUNT_PAGE),
  ]);
  return {
    total: all.total,
    enabled: enabled.total,
    autoDisabled: disabled.items.filter((channel) => channel.status === ChannelStatus.AutoDisabled).length,
  };
}

/** The groups some enabled channel serves (one page of the list's largest size, as the counts read). */
export async function fetchServedGroups(): Promise<string[]> {
  const enabled = channelPageSchema.parse(
    await api.data<unknown>('GET', '/channel/', {
      query: { p: 1, page_size: CHANNEL_COUNT_PAGE, status: 'enabled' },
    }),
  );
  const groups = enabled.items.flatMap((channel) => channel.group.split(',').map((group) => group.trim()));
  return [...new Set(groups.filter((group) => group !== ''))];
}

export interface ChannelDraft {
  type: number;
  name: string;
  /** Write-only: empty on edit keeps the stored key. */
  key: string;
  base_url: string;
  models: string;
  group: string;
  model_mapping: string;
  priority: number;
  weight: number;
  tag: string;
  /** 1: relay may disable the channel when its key is refused or its quota runs out. */
  auto_ban: number;
  test_model: string;
  /** 0: no limit. */
  max_concurrency: number;
  /** Type-specific: Azure's api-version, for example. */
  other: string;
  /** Seconds a streamed call waits for the upstream's first token; null: relay's default. */
  stream_headers_timeout: number | null;
}

export async function saveChannel(id: number | null, draft: ChannelDraft): Promise<ChannelView> {
  const { key, ...rest } = draft;
  const body = { ...rest, ...(key.trim() !== '' ? { key: key.trim() } : {}) };
  return channelViewSchema.parse(
    id === null
      ? await api.data<unknown>('POST', '/channel/', { body })
      : await api.data<unknown>('PUT', '/channel', { body: { id, ...body } }),
  );
}

export async function setChannelStatus(id: number, status: number): Promise<void> {
  await api.send('PUT', '/channel', { body: { id, status } });
}

export async function deleteChannel(id: number): Promise<void> {
  await api.send('DELETE', `/channel/${id}`);
}

/** GET /api/channel/test/:id answers new-api's shape at the top level, not in `data`. */
export async function testChannel(id: number): Promise<ChannelTestAnswer> {
  const envelope = await api.send<unknown>('GET', `/channel/test/${id}`);
  return channelTestAnswerSchema.parse(envelope);
}

export async function fetchOptions(): Promise<OptionView[]> {
  return z.array(optionViewSchema).parse(await api.data<unknown>('GET', '/option/'));
}

export async function saveOption(key: string, value: string): Promise<void> {
  await api.send('PUT', '/option/', { body: { key, value } });
}

export async function fetchPricingAdmin(): Promise<{
  models: ModelPricing[];
  groupRatios: Record<string, number>;
}> {
  const answer = pricingResponseSchema.parse(await api.send<unknown>('GET', '/pricing'));
  return { models: answer.data, groupRatios: answer.group_ratio };
}

/** Every field of a model's price entry (decimals as text, as the API takes them). */
export interface ModelPriceDraft {
  provider: string;
  input_price: string;
  output_price: string;
  cached_input_price: string;
  /** Null: cache writes cost the input price (an hour's writes, the 5-minute write price). */
  cache_write_price: string | null;
  cache_write_1h_price: string | null;
  context_window: number;
  intelligence: number;
  speed: number;
  sota: boolean;
  deprecated: boolean;
}

export async function saveModelPrice(model: string, draft: ModelPriceDraft): Promise<void> {
  await api.send('PUT', `/pricing/models/${encodeURIComponent(model)}`, { body: draft });
}

export async function saveGroupRatio(group: string, ratio: string): Promise<void> {
  await api.send('PUT', `/pricing/groups/${encodeURIComponent(group)}`, { body: { ratio } });
}

export const ADMIN_PROMO_PAGE_SIZE = 20;
const promoPageSchema = pageSchema(promoSchema);
export type PromoPage = z.infer<typeof promoPageSchema>;

export async function fetchPromos(page: number): Promise<PromoPage> {
  return promoPageSchema.parse(
    await api.data<unknown>('GET', '/promo', { query: { p: page, page_size: ADMIN_PROMO_PAGE_SIZE } }),
  );
}

export interface PromoDraft {
  code: string;
  type: Promo['type'];
  value: string;
  max_uses: number;
  per_user_limit: number;
  min_amount: string;
  expires_at: number | null;
}

export async function createPromo(draft: PromoDraft): Promise<Promo> {
  return promoSchema.parse(await api.data<unknown>('POST', '/promo', { body: draft }));
}

export async function setPromoActive(id: number, active: boolean): Promise<void> {
  await api.send('PUT', `/promo/${id}`, { body: { active } });
}

export async function deletePromo(id: number): Promise<void> {
  await api.send('DELETE', `/promo/${id}`);
}

const logPageSchema = pageSchema(logItemSchema);
export type AdminLogPage = z.infer<typeof logPageSchema>;

/** The admin log's filters as the API names them (`type` 0 = every type). */
export interface AdminLogFilters {
  start_timestamp: number;
  end_timestamp: number;
  type: number;
  username?: string;
  token_name?: string;
  model_name?: string;
  channel?: number;
}

const logQuery = (filters: AdminLogFilters) => ({
  ...filters,
  type: filters.type || undefined,
  username: filters.username || undefined,
  token_name: filters.token_name || undefined,
  model_name: filters.model_name || undefined,
});

/** `GET /api/log/`: every user's log lines (admins), 20 a page. */
export async function fetchAdminLogs(filters: AdminLogFilters, page: number): Promise<AdminLogPage> {
  return logPageSchema.parse(
    await api.data<unknown>('GET', '/log/', {
      query: { ...logQuery(filters), p: page, page_size: LOG_PAGE_DEFAULT_SIZE },
    }),
  );
}

/** `GET /api/log/export`: the same filters as a CSV file, money and times as the screen shows them. */
export function exportAdminLogs(filters: AdminLogFilters, format: LogExportFormat): Promise<Blob> {
  return api.file('/log/export', {
    query: { ...logQuery(filters), currency: format.currency, tz: format.timeZone },
  });
}

/** `GET /api/statistics/` (admin): every user's usage per Moscow day and model. */
export async function fetchAllStatistics(startDay: string, endDay: string): Promise<DailyModelUsage[]> {
  return z
    .array(dailyModelUsageSchema)
    .parse(
      await api.data<unknown>('GET', '/statistics/', { query: { start_date: startDay, end_date: endDay } }),
    );
}

export async function saveVersion(id: number | null, draft: CreateVersionRequest): Promise<void> {
  if (id === null) await api.send('POST', '/versions', { body: draft });
  else await api.send('PUT', '/versions', { body: { id, ...draft } });
}

export async function deleteVersion(id: number): Promise<void> {
  await api.send('DELETE', `/versions/${id}`);
}

/** Every incident, newest first (the first 50: older ones are history on the status page). */
export async function fetchIncidentsAdmin(): Promise<IncidentView[]> {
  return incidentPageSchema.parse(
    await api.data<unknown>('GET', '/incident/', { query: { p: 1, page_size: 50 } }),
  ).items;
}

export async function createIncident(
  request: Partial<CreateIncidentRequest> & { title: string },
): Promise<void> {
  await api.send('POST', '/incident/', { body: request });
}

export async function updateIncident(id: number, request: UpdateIncidentRequest): Promise<void> {
  await api.send('PUT', `/incident/${id}`, { body: request });
}

export async function deleteIncident(id: number): Promise<void> {
  await api.send('DELETE', `/incident/${id}`);
}

/** `GET /api/statistics/overview` (admin): active users, errors, top users, billing's lag. */
export async function fetchOverview(): Promise<AdminOverview> {
  return adminOverviewSchema.parse(await api.data<unknown>('GET', '/statistics/overview'));
}

/** `GET /api/channel/fetch_models/:id`: the models the channel's upstream lists for its key (via relay). */
export async function fetchUpstreamModels(id: number): Promise<string[]> {
  return z.array(z.string()).parse(await api.data<unknown>('GET', `/channel/fetch_models/${id}`));
}

/**
 * `GET /api/option/configured` (root): what each setting is while no operator sets it, spelled as the
 * option would be; a setting admin cannot tell (another service's configuration alone decides) is absent.
 */
export async function fetchConfiguredSettings(): Promise<Record<string, string>> {
  return z.record(z.string()).parse(await api.data<unknown>('GET', '/option/configured'));
}

/** `GET /api/option/secrets` (root): which secrets the configuration holds. */
export async function fetchConfiguredSecrets(): Promise<ConfiguredSecrets> {
  return configuredSecretsSchema.parse(await api.data<unknown>('GET', '/option/secrets'));
}
