import { LockMode } from '@mikro-orm/core';
import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  ErrorCode,
  normalizeDecimal,
  type Page,
  type Promo,
  type PromoCreate,
  type PromoUpdate,
  type PromoValidation,
} from '@tollgate/contracts';
import { auditRecorder, OutboxRelay, type AuditActor } from '@tollgate/persistence';
import { type Locale } from '@tollgate/platform';
import { localizedException, message } from '../i18n/messages';
import { PromoCode } from './promo-code.entity';
import { escapeLike } from './promo-redemptions.service';
import { promoDescription, promoRefusal } from './promo-rules';
import { PromoUsageRepository } from './promo-usage.repository';

const epochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);
const fromEpoch = (seconds: number | null | undefined): Date | null | undefined =>
  seconds === undefined ? undefined : seconds === null ? null : new Date(seconds * 1000);

export function toPromo(promo: PromoCode): Promo {
  return {
    id: promo.id,
    code: promo.code,
    type: promo.type,
    value: normalizeDecimal(promo.value),
    max_uses: promo.maxUses,
    per_user_limit: promo.perUserLimit,
    min_amount: normalizeDecimal(promo.minAmount),
    starts_at: promo.startsAt ? epochSeconds(promo.startsAt) : null,
    expires_at: promo.expiresAt ? epochSeconds(promo.expiresAt) : null,
    active: promo.active,
    used_count: promo.usedCount,
    created_at: epochSeconds(promo.createdAt),
    updated_at: epochSeconds(promo.updatedAt),
  };
}

/** What an operator sets on a code (its use count is the users' doing). */
function promoAuditSnapshot(promo: PromoCode): Record<string, unknown> {
  const {
    id: _id,
    used_count: _used,
    created_at: _created,
    updated_at: _updated,
    ...settings
  } = toPromo(promo);
  return settings;
}

const auditPromo = auditRecorder('billing', 'promo');

const notFound = (locale: Locale) => localizedException(ErrorCode.NotFound, 'promo_not_found', locale);

/** Admins' management of promo codes, and the users' check of a code before paying. */
@Injectable()
export class PromoService {
  constructor(
    private readonly em: EntityManager,
    private readonly usage: PromoUsageRepository,
    private readonly outbox: OutboxRelay,
  ) {}

  async list(page: number, pageSize: number): Promise<Page<Promo>> {
    const [items, total] = await this.em
      .fork()
      .findAndCount(
        PromoCode,
        { deletedAt: null },
        { orderBy: { id: 'desc' }, limit: pageSize, offset: (page - 1) * pageSize },
      );
    return { page, page_size: pageSize, total, items: items.map(toPromo) };
  }

  async create(actor: AuditActor, input: PromoCreate, locale: Locale): Promise<Promo> {
    const promo = await this.inTransaction(async (em) => {
      const created = em.create(PromoCode, {
        code: input.code,
        type: input.type,
        value: input.value,
        maxUses: input.max_uses,
        perUserLimit: input.per_user_limit,
        minAmount: input.min_amount,
        startsAt: fromEpoch(input.starts_at) ?? null,
        expiresAt: fromEpoch(input.expires_at) ?? null,
        active: input.active,
      });
      await this.flushUnique(em, locale);
      await auditPromo(em, actor, 'promo.create', created.id, null, promoAuditSnapshot(created));
      return created;
    });
    return toPromo(promo);
  }

  async update(actor: AuditActor, id: number, patch: PromoUpdate, locale: Locale): Promise<Promo> {
    return toPromo(await this.inTransaction((em) => this.change(em, actor, id, patch, locale)));
  }

  private async change(
    em: EntityManager,
    actor: AuditActor,
    id: number,
    patch: PromoUpdate,
    locale: Locale,
  ): Promise<PromoCode> {
    const promo = await em.findOne(
      PromoCode,
      { id, deletedAt: null },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!promo) throw notFound(locale);
    const before = promoAuditSnapshot(promo);
    const changes = {
      code: patch.code,
      type: patch.type,
      value: patch.value,
      maxUses: patch.max_uses,
      perUserLimit: patch.per_user_limit,
      minAmount: patch.min_amount,
      startsAt: fromEpoch(patch.starts_at),
      expiresAt: fromEpoch(patch.expires_at),
      active: patch.active,
    };
    em.assign(promo, Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)));
    if (promo.maxUses > 0 && promo.maxUses < promo.usedCount) {
      throw localizedException(ErrorCode.ValidationFailed, 'promo_max_uses_below_used', locale, {
        used: promo.usedCount,
      });
    }
    if (promo.startsAt && promo.expiresAt && promo.expiresAt <= promo.startsAt) {
      throw localizedException(ErrorCode.ValidationFailed, 'promo_expires_before_start', locale);
    }
    promo.updatedAt = new Date();
    await this.flushUnique(em, locale);
    await auditPromo(em, actor, 'promo.update', id, before, promoAuditSnapshot(promo));
    return promo;
  }

  /** Deleted codes stop working at once but stay for the payments that used them. */
  async remove(actor: AuditActor, id: number, locale: Locale): Promise<void> {
    await this.inTransaction(async (em) => {
      const promo = await em.findOne(
        PromoCode,
        { id, deletedAt: null },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (!promo) throw notFound(locale);
      const before = promoAuditSnapshot(promo);
      em.assign(promo, { deletedAt: new Date(), active: false, updatedAt: new Date() });
      await em.flush();
      await auditPromo(em, actor, 'promo.delete', id, before, null);
    });
  }

  /** Whether `userId` could use `code` now; never tells why not. */
  async validate(code: string, userId: number, locale: Locale): Promise<PromoValidation> {
    const invalid: PromoValidation = { valid: false, code, description: message('promo_invalid', locale) };
    if (code === '') return invalid;
    const em = this.em.fork();
    const [promo] = await em.find(PromoCode, { code: { $ilike: escapeLike(code) }, deletedAt: null });
    if (!promo) return invalid;
    const now = new Date();
    if (promoRefusal(await this.usage.usability(em, promo, userId, now), now)) return invalid;
    return {
      valid: true,
      code: promo.code,
      type: promo.type,
      value: normalizeDecimal(promo.value),
      min_amount: normalizeDecimal(promo.minAmount),
      description: promoDescription(promo.type, promo.value, promo.minAmount, locale),
    };
  }

  private async inTransaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    const result = await this.em.fork().transactional(work);
    this.outbox.nudge();
    return result;
  }

  private async flushUnique(em: EntityManager, locale: Locale): Promise<void> {
    try {
      await em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) {
        throw localizedException(ErrorCode.Conflict, 'promo_code_exists', locale);
      }
      throw error;
    }
  }
}
