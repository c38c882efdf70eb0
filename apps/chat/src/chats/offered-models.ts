import { Injectable } from '@nestjs/common';
import { envelopeSchema, systemStatusSchema } from '@tollgate/contracts';
import { InjectServiceConfig } from '@tollgate/platform';
import { LRUCache } from 'lru-cache';
import { request } from 'undici';
import type { ChatConfig } from '../config';
import { RelayChatClient } from '../relay/relay-chat.client';

const statusEnvelope = envelopeSchema(systemStatusSchema.pick({ chat_models: true }).passthrough());

/**
 * The models a user may chat with: admin's `chat_models` (from /api/status) that a channel serves for
 * the user's group (relay says which); every model relay offers when `chat_models` is empty. Both
 * answers are reused for CHAT_MODELS_CACHE_MS.
 */
@Injectable()
export class OfferedModels {
  private chatModels?: { models: string[]; at: number };
  private readonly perUser: LRUCache<number, string[]>;

  constructor(
    @InjectServiceConfig() private readonly config: ChatConfig,
    private readonly relay: RelayChatClient,
  ) {
    this.perUser = new LRUCache({ max: 10_000, ttl: Math.max(1, config.CHAT_MODELS_CACHE_MS) });
  }

  async forUser(userId: number): Promise<string[]> {
    const [wanted, served] = await Promise.all([this.adminChatModels(), this.servedFor(userId)]);
    if (wanted.length === 0) return served;
    const servedSet = new Set(served);
    return wanted.filter((model) => servedSet.has(model));
  }

  private async servedFor(userId: number): Promise<string[]> {
    const cached = this.perUser.get(userId);
    if (cached) return cached;
    const models = await this.relay.models(userId);
    this.perUser.set(userId, models);
    return models;
  }

  private async adminChatModels(): Promise<string[]> {
    const now = Date.now();
    if (this.chatModels && now - this.chatModels.at < this.config.CHAT_MODELS_CACHE_MS)
      return this.chatModels.models;
    try {
      const res = await request(new URL('/api/status', this.config.ADMIN_URL), { method: 'GET' });
      const body = statusEnvelope.parse(await res.body.json());
      this.chatModels = { models: body.data?.chat_models ?? [], at: now };
    } catch {
      // Admin unreachable: the last known list, else every served model.
      this.chatModels = { models: this.chatModels?.models ?? [], at: now };
    }
    return this.chatModels.models;
  }
}
