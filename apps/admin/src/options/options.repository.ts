import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { enqueueOutbox, OutboxRelay, recordAudit, type AuditActor } from '@tollgate/persistence';
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

  async set(key: string, value: string, actor: AuditActor): Promise<Option> {
    const option = await this.em.fork().transactional(async (tx) => {
      // The value is copied out: the upsert below updates the same managed entity.
      const previous = (await tx.findOne(Option, { key }))?.value;
      // One statement (insert … on conflict update), so two first writes of a key cannot collide.
      const saved = await tx.upsert(Option, { key, value, updatedAt: new Date() });
      await enqueueOutbox(tx, [catalogOptionEvent(saved)]);
      await recordAudit(tx, {
        service: 'admin',
        actor,
        action: 'option.update',
        target: { kind: 'option', id: key },
        before: previous === undefined ? null : { [key]: previous },
        after: { [key]: value },
      });
      return saved;
    });
    this.outbox.nudge();
    return option;
  }
}
