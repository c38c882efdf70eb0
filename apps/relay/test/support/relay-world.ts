import { createHmac, randomBytes, randomInt } from 'node:crypto';
import {
  CHANNEL_KEY_ENCRYPTION_PURPOSE,
  priceKey,
  TOKEN_KEY_HASH_PURPOSE,
  TOPICS,
  type BillingBalance,
  type CatalogChannel,
  type IdentityToken,
  type IdentityUser,
} from '@tollgate/contracts';
import type { EventBus } from '@tollgate/events';
import { deriveKey, SecretBox } from '@tollgate/platform';
import { aChannel, aModelPrice, aToken, aUser } from './fixtures';

export interface TestKey {
  apiKey: string;
  token: IdentityToken;
  userId: number;
}

/**
 * The entities relay reads, published straight onto their compacted topics as auth, billing and admin
 * would. Names, groups and ids are unique to the run, so a shared broker's older entities never match.
 */
export class RelayWorld {
  readonly masterKey = randomBytes(32);
  readonly group: string;
  private readonly channelBox = new SecretBox(deriveKey(this.masterKey, CHANNEL_KEY_ENCRYPTION_PURPOSE));
  private readonly hmacKey = deriveKey(this.masterKey, TOKEN_KEY_HASH_PURPOSE);

  constructor(
    private readonly bus: EventBus,
    readonly runId: string,
  ) {
    this.group = `g_${runId}`;
  }

  get encryptionKey(): string {
    return this.masterKey.toString('base64');
  }

  /** A model name of this run (the channel maps it to what the fake upstream is asked for). */
  model(base: string): string {
    return `${base}-${this.runId}`;
  }

  async price(model: string, group_ratio = '1'): Promise<void> {
    await this.bus.publish([
      { topic: TOPICS.billingPrice.name, key: `model:${model}`, value: aModelPrice(model) },
      {
        topic: TOPICS.billingPrice.name,
        key: `group:${this.group}`,
        value: { v: 1, kind: 'group_ratio', group: this.group, ratio: group_ratio, updated_at: 0 },
      },
    ]);
  }

  /** A channel of this run's group, its upstream key sealed as admin seals it. */
  async channel(overrides: Partial<CatalogChannel> & { key: string }): Promise<CatalogChannel> {
    const { key, ...rest } = overrides;
    const channel = aChannel({
      id: randomInt(100_000_000, 2_000_000_000),
      groups: [this.group],
      ...rest,
      key_encrypted: this.channelBox.seal(key),
    });
    await this.bus.publish([{ topic: TOPICS.catalogChannel.name, key: String(channel.id), value: channel }]);
    return channel;
  }

  /**
   * A user with an API key of this run's group, and a balance published as billing would (pass
   * `undefined` when billing itself runs and sets it).
   */
  async key(
    balance: number | undefined,
    token: Partial<IdentityToken> = {},
    user: Partial<IdentityUser> = {},
  ): Promise<TestKey> {
    const userId = randomInt(100_000_000, 2_000_000_000);
    const { apiKey, entity } = this.newToken(userId, token);
    await this.bus.publish([
      {
        topic: TOPICS.identityUser.name,
        key: String(userId),
        value: aUser(userId, { group: this.group, ...user }),
      },
      ...(balance === undefined
        ? []
        : [{ topic: TOPICS.billingBalance.name, key: String(userId), value: this.balance(userId, balance) }]),
      { topic: TOPICS.identityToken.name, key: String(entity.id), value: entity },
    ]);
    return { apiKey, token: entity, userId };
  }

  /** Another key of a user `key()` made. */
  async keyOf(userId: number, token: Partial<IdentityToken> = {}): Promise<TestKey> {
    const { apiKey, entity } = this.newToken(userId, token);
    await this.bus.publish([{ topic: TOPICS.identityToken.name, key: String(entity.id), value: entity }]);
    return { apiKey, token: entity, userId };
  }

  private newToken(userId: number, token: Partial<IdentityToken>): { apiKey: string; entity: IdentityToken } {
    const apiKey = `sk-${randomBytes(24).toString('hex')}`;
    const entity = aToken({
      id: randomInt(100_000_000, 2_000_000_000),
      user_id: userId,
      key_hash: createHmac('sha256', this.hmacKey).update(apiKey, 'utf8').digest('hex'),
      group: this.group,
      ...token,
    });
    return { apiKey, entity };
  }

  /** A signed-in user of this run's group with no key (the chat service calls for them), and a balance. */
  async webUser(balance: number): Promise<number> {
    const userId = randomInt(100_000_000, 2_000_000_000);
    await this.bus.publish([
      {
        topic: TOPICS.identityUser.name,
        key: String(userId),
        value: { ...aUser(userId), group: this.group },
      },
      { topic: TOPICS.billingBalance.name, key: String(userId), value: this.balance(userId, balance) },
    ]);
    return userId;
  }

  /** The dollar's rate in rubles as billing publishes it on billing.price. */
  async exchangeRate(rate: string, updatedAt: number): Promise<void> {
    await this.bus.publish([
      {
        topic: TOPICS.billingPrice.name,
        key: priceKey.rate('USD_RUB'),
        value: { v: 1, kind: 'exchange_rate', pair: 'USD_RUB', rate, updated_at: updatedAt },
      },
    ]);
  }

  async updateToken(token: IdentityToken): Promise<void> {
    await this.bus.publish([{ topic: TOPICS.identityToken.name, key: String(token.id), value: token }]);
  }

  private balance(userId: number, quota: number): BillingBalance {
    return {
      v: 1,
      user_id: userId,
      quota,
      used_quota: 0,
      request_count: 0,
      aff_quota: 0,
      aff_history_quota: 0,
      version: 1,
      updated_at: Math.floor(Date.now() / 1000),
    };
  }
}
