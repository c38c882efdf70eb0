import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { enqueueOutbox, OutboxRelay } from '@tollgate/persistence';
import { catalogOptionEvent } from './option-events';
import { Option } from './option.entity';

/** The options table; every change is published on catalog.option in the same transaction. */
@Injectable()
export class OptionsRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly outbox: OutboxRelay,
  ) {}

  all(): Promise<Option[]> {
    return this.em.fork().find(Option, {}, { orderBy: { key: 'asc' } });
  }

  find(key: string): Promise<Option | null> {
    return this.em.fork().findOne(Option, { key });
  }

  async set(key: string, value: string): Promise<Option> {
    const option = await this.em.fork().transactional(async (tx) => {
      // One statement (insert … on conflict update), so two first writes of a key cannot collide.
      const saved = await tx.upsert(Option, { key, value, updatedAt: new Date() });
      await enqueueOutbox(tx, [catalogOptionEvent(saved)]);
      return saved;
    });
    this.outbox.nudge();
    return option;
  }
}
