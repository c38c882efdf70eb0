import type { CatalogChannel } from '@tollgate/contracts';
import type { RouteAttempt } from './route-attempt';

/** The enabled channels of one priority serving one (model, group), ordered by channel id. */
export interface PriorityBand {
  readonly priority: number;
  readonly attempts: readonly RouteAttempt[];
}

const ENABLED = 1;
const NO_BANDS: readonly PriorityBand[] = Object.freeze([]);

/**
 * Every enabled channel filed under each model it serves (listed, or a model_mapping key) and
 * each group it belongs to, in priority bands from highest to lowest. Built once per change of
 * the channel table, so a request's look-up is two map reads. Unknown models and groups read the
 * shared empty list: a client cannot grow the index by asking for made-up names.
 */
export class CandidateIndex {
  private constructor(
    private readonly byModel: ReadonlyMap<string, ReadonlyMap<string, readonly PriorityBand[]>>,
    /** The most channels in any one band: the size of the router's scratch space. */
    readonly largestBand: number,
    /** Ids of every channel in the table, enabled or not. */
    readonly channelIds: ReadonlySet<number>,
    /** The groups of every channel, enabled or not, that lists each model. */
    private readonly listedFor: ReadonlyMap<string, ReadonlySet<string>>,
  ) {}

  static build(channels: Iterable<CatalogChannel>): CandidateIndex {
    const lists = new Map<string, Map<string, RouteAttempt[]>>();
    const channelIds = new Set<number>();
    const listedFor = new Map<string, Set<string>>();
    for (const channel of channels) {
      channelIds.add(channel.id);
      const groups = new Set(channel.groups);
      const enabled = channel.status === ENABLED;
      for (const model of servedModels(channel)) {
        let listing = listedFor.get(model);
        if (!listing) listedFor.set(model, (listing = new Set()));
        for (const group of groups) listing.add(group);
        if (!enabled) continue;
        const attempt: RouteAttempt = { channel, upstreamModel: channel.model_mapping[model] || model };
        let byGroup = lists.get(model);
        if (!byGroup) lists.set(model, (byGroup = new Map()));
        for (const group of groups) {
          const list = byGroup.get(group);
          if (list) list.push(attempt);
          else byGroup.set(group, [attempt]);
        }
      }
    }

    let largestBand = 0;
    const byModel = new Map<string, Map<string, readonly PriorityBand[]>>();
    for (const [model, byGroup] of lists) {
      const bandsByGroup = new Map<string, readonly PriorityBand[]>();
      for (const [group, attempts] of byGroup) {
        const bands = toPriorityBands(attempts);
        for (const band of bands) largestBand = Math.max(largestBand, band.attempts.length);
        bandsByGroup.set(group, bands);
      }
      byModel.set(model, bandsByGroup);
    }
    return new CandidateIndex(byModel, largestBand, channelIds, listedFor);
  }

  /**
   * Whether some channel of the group lists the model, in any status: a model only other groups'
   * channels serve is none of the group's business, while one whose channels are all disabled or
   * failing is the group's, only unavailable for now.
   */
  lists(model: string, group: string): boolean {
    return this.listedFor.get(model)?.has(group) ?? false;
  }

  /** Highest priority first. */
  bands(model: string, group: string): readonly PriorityBand[] {
    return this.byModel.get(model)?.get(group) ?? NO_BANDS;
  }
}

function servedModels(channel: CatalogChannel): Set<string> {
  const models = new Set<string>();
  for (const model of channel.models) if (model) models.add(model);
  for (const model of Object.keys(channel.model_mapping)) if (model) models.add(model);
  return models;
}

function toPriorityBands(attempts: RouteAttempt[]): readonly PriorityBand[] {
  attempts.sort((a, b) => b.channel.priority - a.channel.priority || a.channel.id - b.channel.id);
  const bands: PriorityBand[] = [];
  let start = 0;
  for (let i = 1; i <= attempts.length; i++) {
    if (i === attempts.length || attempts[i].channel.priority !== attempts[start].channel.priority) {
      bands.push(
        Object.freeze({
          priority: attempts[start].channel.priority,
          attempts: Object.freeze(attempts.slice(start, i)),
        }),
      );
      start = i;
    }
  }
  return Object.freeze(bands);
}
