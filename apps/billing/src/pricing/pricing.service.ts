import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  ErrorCode,
  normalizeDecimal,
  USER_GROUPS,
  type GroupRatioUpdate,
  type ModelPriceUpdate,
  type ModelPricing,
  type PricingResponse,
} from '@tollgate/contracts';
import { enqueueOutbox, OutboxRelay, recordAudit, type AuditActor } from '@tollgate/persistence';
import { hasRole, Role, type Identity, type Locale } from '@tollgate/platform';
import { GroupRatio } from './group-ratio.entity';
import { ModelPrice } from './model-price.entity';
import { localizedException } from '../i18n/messages';
import { groupRatioEvent, modelPriceEvent } from './price-events';
import { ServedModels } from './served-models';

/** The group whose models a visitor (or a caller without a group) sees: what anyone can call once signed up. */
const PUBLIC_GROUP = 'default';

const toPricing = (price: ModelPrice): ModelPricing => ({
  model: price.model,
  context_window: price.contextWindow,
  provider: price.provider,
  input_price: Number(price.inputPrice),
  output_price: Number(price.outputPrice),
  cached_input_price: Number(price.cachedInputPrice),
  cache_write_price: price.cacheWritePrice === null ? null : Number(price.cacheWritePrice),
  cache_write_1h_price: price.cacheWrite1hPrice === null ? null : Number(price.cacheWrite1hPrice),
  intelligence: price.intelligence,
  speed: price.speed,
  sota: price.sota,
  deprecated: price.deprecated,
});

/** A model's entry as the audit trail keeps it: prices as the exact decimals stored. */
const priceAuditSnapshot = (price: ModelPrice): Record<string, unknown> => ({
  ...toPricing(price),
  input_price: normalizeDecimal(price.inputPrice),
  output_price: normalizeDecimal(price.outputPrice),
  cached_input_price: normalizeDecimal(price.cachedInputPrice),
  cache_write_price: price.cacheWritePrice === null ? null : normalizeDecimal(price.cacheWritePrice),
  cache_write_1h_price: price.cacheWrite1hPrice === null ? null : normalizeDecimal(price.cacheWrite1hPrice),
});

/**
 * The model catalogue and group ratios. Every change goes to billing.price through the outbox in
 * the transaction that makes it, so relay's price table never misses or invents one.
 */
@Injectable()
export class PricingService {
  constructor(
    private readonly em: EntityManager,
    private readonly outbox: OutboxRelay,
    private readonly served: ServedModels,
  ) {}

  /**
   * The price list as `caller` may see it (numbers are for display only; stored and published values
   * stay decimal strings). An admin sees every model and ratio, for the price editor. Anyone else sees
   * the models an enabled channel serves for their own group (`default` for a visitor), exactly what
   * relay would serve them, and the ratios of the named groups and their own: a company's private
   * models and ratio are its own business.
   */
  async catalogue(caller: Identity | undefined, locale: Locale): Promise<PricingResponse> {
    const em = this.em.fork();
    const [models, groups] = await Promise.all([
      em.find(ModelPrice, {}, { orderBy: { provider: 'asc', model: 'asc' } }),
      em.find(GroupRatio, {}, { orderBy: { group: 'asc' } }),
    ]);
    const everything = caller !== undefined && hasRole(caller.role, Role.Admin);
    const own = caller?.group ?? PUBLIC_GROUP;
    const served = everything ? undefined : this.served.forGroups([own]);
    if (!everything && served === undefined) {
      throw localizedException(ErrorCode.ServiceUnavailable, 'price_list_loading', locale);
    }
    const visibleGroups = new Set<string>([...USER_GROUPS, own]);
    return {
      success: true,
      message: '',
      data: (served ? models.filter((price) => served.has(price.model)) : models).map(toPricing),
      group_ratio: Object.fromEntries(
        groups
          .filter((ratio) => everything || visibleGroups.has(ratio.group))
          .map((ratio) => [ratio.group, Number(ratio.ratio)]),
      ),
    };
  }

  /** Creates or replaces a model's entry and publishes it. */
  async setModelPrice(actor: AuditActor, model: string, update: ModelPriceUpdate): Promise<ModelPricing> {
    const saved = await this.em.fork().transactional(async (tx) => {
      const now = new Date();
      const existing = await tx.findOne(ModelPrice, { model }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const before = existing ? priceAuditSnapshot(existing) : null;
      const price = existing ?? tx.create(ModelPrice, { model, ...this.modelFields(update), createdAt: now });
      tx.assign(price, { ...this.modelFields(update), updatedAt: now, publishedAt: now });
      await tx.flush();
      await enqueueOutbox(tx, [modelPriceEvent(price)]);
      await recordAudit(tx, {
        service: 'billing',
        actor,
        action: 'price.update',
        target: { kind: 'model', id: model },
        before,
        after: priceAuditSnapshot(price),
      });
      return price;
    });
    this.outbox.nudge();
    return toPricing(saved);
  }

  /** Creates or replaces a group's ratio and publishes it. */
  async setGroupRatio(
    actor: AuditActor,
    group: string,
    update: GroupRatioUpdate,
  ): Promise<{ group: string; ratio: number }> {
    const saved = await this.em.fork().transactional(async (tx) => {
      const now = new Date();
      const existing = await tx.findOne(GroupRatio, { group }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const before = existing ? { ratio: normalizeDecimal(existing.ratio) } : null;
      const ratio = existing ?? tx.create(GroupRatio, { group, ratio: update.ratio, createdAt: now });
      tx.assign(ratio, { ratio: update.ratio, updatedAt: now, publishedAt: now });
      await tx.flush();
      await enqueueOutbox(tx, [groupRatioEvent(ratio)]);
      await recordAudit(tx, {
        service: 'billing',
        actor,
        action: 'group_ratio.update',
        target: { kind: 'group', id: group },
        before,
        after: { ratio: normalizeDecimal(ratio.ratio) },
      });
      return ratio;
    });
    this.outbox.nudge();
    return { group: saved.group, ratio: Number(saved.ratio) };
  }

  /**
   * Publishes every entry that has never been published (the seeded ones), once: rows are claimed
   * with FOR UPDATE SKIP LOCKED, so replicas starting together never publish one entry twice.
   */
  async publishUnpublished(): Promise<number> {
    const published = await this.em.fork().transactional(async (tx) => {
      const claim = { lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE } as const;
      const models = await tx.find(ModelPrice, { publishedAt: null }, claim);
      const groups = await tx.find(GroupRatio, { publishedAt: null }, claim);
      const now = new Date();
      for (const entry of [...models, ...groups]) entry.publishedAt = now;
      await tx.flush();
      await enqueueOutbox(tx, [...models.map(modelPriceEvent), ...groups.map(groupRatioEvent)]);
      return models.length + groups.length;
    });
    if (published > 0) this.outbox.nudge();
    return published;
  }

  private modelFields(update: ModelPriceUpdate) {
    return {
      provider: update.provider,
      inputPrice: update.input_price,
      outputPrice: update.output_price,
      cachedInputPrice: update.cached_input_price,
      cacheWritePrice: update.cache_write_price,
      cacheWrite1hPrice: update.cache_write_1h_price,
      contextWindow: update.context_window,
      intelligence: update.intelligence,
      speed: update.speed,
      sota: update.sota,
      deprecated: update.deprecated,
    };
  }
}
