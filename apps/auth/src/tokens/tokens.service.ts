import { Injectable } from '@nestjs/common';
import {
  ErrorCode,
  keyLimitAboveGroup,
  limitsOfGroup,
  type CreateTokenRequest,
  type KeyRateLimitFields,
  type Page,
  type TokenGroupLimits,
  type TokenKey,
  type TokenView,
  type UpdateTokenRequest,
} from '@tollgate/contracts';
import type { Locale } from '@tollgate/platform';
import { localizedException } from '../i18n/localized-exception';
import { SettingsReadModel } from '../settings/settings-read-model';
import { UsersRepository } from '../users/users.repository';
import { ApiKeyCipher, generateApiKey, maskApiKey } from './token-crypto';
import { tokenView } from './token-view';
import { TokensRepository } from './tokens.repository';

/** A user's own API keys; someone else's key answers exactly like a missing one. */
@Injectable()
export class TokensService {
  constructor(
    private readonly tokens: TokensRepository,
    private readonly cipher: ApiKeyCipher,
    private readonly users: UsersRepository,
    private readonly settings: SettingsReadModel,
  ) {}

  async list(userId: number, page: number, pageSize: number, keyword?: string): Promise<Page<TokenView>> {
    const found = await this.tokens.page(userId, page, pageSize, keyword);
    return { page, page_size: pageSize, total: found.total, items: found.items.map(tokenView) };
  }

  async get(userId: number, id: number, locale: Locale): Promise<TokenView> {
    return tokenView(this.owned(await this.tokens.findOwned(userId, id), locale));
  }

  async create(userId: number, request: CreateTokenRequest, locale: Locale): Promise<TokenView> {
    await this.assertOwnersGroup(userId, request.group, locale);
    await this.assertWithinGroupLimits(userId, request, locale);
    const apiKey = generateApiKey();
    const token = await this.tokens.create({
      ...request,
      userId,
      keyHash: this.cipher.hash(apiKey),
      keyEncrypted: this.cipher.encrypt(apiKey),
      keyMasked: maskApiKey(apiKey),
    });
    return tokenView(token);
  }

  async update(userId: number, request: UpdateTokenRequest, locale: Locale): Promise<TokenView> {
    const { id, ...changes } = request;
    const limitsChange =
      changes.rpm_limit !== undefined ||
      changes.tpm_limit !== undefined ||
      changes.concurrency_limit !== undefined;
    if (changes.group !== undefined) await this.assertOwnersGroup(userId, changes.group, locale);
    if (limitsChange) {
      const current = this.owned(await this.tokens.findOwned(userId, id), locale);
      await this.assertWithinGroupLimits(
        userId,
        {
          rpm_limit: changes.rpm_limit ?? current.rpmLimit,
          tpm_limit: changes.tpm_limit ?? current.tpmLimit,
          concurrency_limit: changes.concurrency_limit ?? current.concurrencyLimit,
        },
        locale,
      );
    }
    return tokenView(this.owned(await this.tokens.update(userId, id, changes), locale));
  }

  async delete(userId: number, id: number, locale: Locale): Promise<void> {
    if (!(await this.tokens.delete(userId, id))) throw this.notFound(locale);
  }

  /** The limits of the caller's group, which bound their keys' own (assertWithinGroupLimits). */
  async groupLimits(userId: number): Promise<TokenGroupLimits> {
    const group = await this.ownersGroup(userId);
    return { group, limits: limitsOfGroup(this.settings.groupRateLimits(), group) };
  }

  /** The full key, for its owner only. */
  async key(userId: number, id: number, locale: Locale): Promise<TokenKey> {
    const token = this.owned(await this.tokens.findOwned(userId, id), locale);
    return { key: this.cipher.decrypt(token.keyEncrypted) };
  }

  /**
   * A key may name no group or its owner's, never another: a group opens its private channels and
   * prices, and only an operator gives one (to the user). Relay serves every key in its owner's group.
   */
  private async assertOwnersGroup(userId: number, keyGroup: string, locale: Locale): Promise<void> {
    if (keyGroup === '') return;
    const group = await this.ownersGroup(userId);
    if (keyGroup === group) return;
    throw localizedException(ErrorCode.ValidationFailed, 'token_group_not_owner', locale, { group });
  }

  /** A key's own limits may tighten its owner's group's (GroupRateLimits), never loosen them. */
  private async assertWithinGroupLimits(
    userId: number,
    limits: KeyRateLimitFields,
    locale: Locale,
  ): Promise<void> {
    if (limits.rpm_limit === 0 && limits.tpm_limit === 0 && limits.concurrency_limit === 0) return;
    const group = await this.ownersGroup(userId);
    const groupLimits = limitsOfGroup(this.settings.groupRateLimits(), group);
    const above = keyLimitAboveGroup(limits, groupLimits);
    if (above === undefined) return;
    const bound = {
      rpm_limit: groupLimits.rpm,
      tpm_limit: groupLimits.tpm,
      concurrency_limit: groupLimits.concurrency,
    }[above];
    throw localizedException(ErrorCode.ValidationFailed, 'token_limit_above_group', locale, { limit: bound });
  }

  private async ownersGroup(userId: number): Promise<string> {
    return (await this.users.findById(userId))?.group ?? '';
  }

  private owned<T>(token: T | null, locale: Locale): T {
    if (!token) throw this.notFound(locale);
    return token;
  }

  private notFound(locale: Locale) {
    return localizedException(ErrorCode.NotFound, 'token_not_found', locale);
  }
}
