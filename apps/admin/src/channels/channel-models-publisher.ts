import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { enqueueOutbox, OutboxRelay } from '@tollgate/persistence';
import { catalogChannelModelsEvent } from './channel-events';
import { Channel } from './channel.entity';

/**
 * At start-up, puts every channel on catalog.channel-models again, so that billing's price list knows
 * the channels created before the topic existed (an upgraded system). The topic is compacted and each
 * value is the whole channel, so doing it at every start changes nothing but the offsets. The rows are
 * read FOR SHARE: a change committing meanwhile waits, or is waited for, so its own event is always
 * queued after this one and the topic ends on the channel as it is.
 */
@Injectable()
export class ChannelModelsPublisher implements OnApplicationBootstrap {
  private readonly logger = new Logger(ChannelModelsPublisher.name);

  constructor(
    private readonly em: EntityManager,
    private readonly outbox: OutboxRelay,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const published = await this.em.fork().transactional(async (tx) => {
      const channels = await tx.find(
        Channel,
        {},
        { lockMode: LockMode.PESSIMISTIC_READ, orderBy: { id: 'asc' } },
      );
      await enqueueOutbox(tx, channels.map(catalogChannelModelsEvent));
      return channels.length;
    });
    if (published === 0) return;
    this.outbox.nudge();
    this.logger.log(`published ${published} channel${published === 1 ? '' : 's'} on catalog.channel-models`);
  }
}
