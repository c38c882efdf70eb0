import { Injectable } from '@nestjs/common';
import {
  ErrorCode,
  type CreateTokenRequest,
  type Page,
  type TokenKey,
  type TokenView,
  type UpdateTokenRequest,
} from '@tollgate/contracts';
import type { Locale } from '../i18n/locale';
import { localizedException } from '../i18n/localized-exception';
import { ApiKeyCipher, generateApiKey, maskApiKey } from './token-crypto';
import { tokenView } from './token-view';
import { TokensRepository } from './tokens.repository';

/** A user's own API keys; someone else's key answers exactly like a missing one. */
@Injectable()
export class TokensService {
  constructor(
    private readonly tokens: TokensRepository,
    private readonly cipher: ApiKeyCipher,
  ) {}

  async list(userId: number, page: number, pageSize: number, keyword?: string): Promise<Page<TokenView>> {
    const found = await this.tokens.page(userId, page, pageSize, keyword);
    return { page, page_size: pageSize, total: found.total, items: found.items.map(tokenView) };
  }

  async get(userId: number, id: number, locale: Locale): Promise<TokenView> {
    return tokenView(this.owned(await this.tokens.findOwned(userId, id), locale));
  }

  async create(userId: number, request: CreateTokenRequest): Promise<TokenView> {
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
    return tokenView(this.owned(await this.tokens.update(userId, id, changes), locale));
  }

  async delete(userId: number, id: number, locale: Locale): Promise<void> {
    if (!(await this.tokens.delete(userId, id))) throw this.notFound(locale);
  }

  /** The full key, for its owner only. */
  async key(userId: number, id: number, locale: Locale): Promise<TokenKey> {
    const token = this.owned(await this.tokens.findOwned(userId, id), locale);
    return { key: this.cipher.decrypt(token.keyEncrypted) };
  }

  private owned<T>(token: T | null, locale: Locale): T {
    if (!token) throw this.notFound(locale);
    return token;
  }

  private notFound(locale: Locale) {
    return localizedException(ErrorCode.NotFound, 'token_not_found', locale);
  }
}
