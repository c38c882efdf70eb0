import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';

/** Only place that deletes usage_logs rows. */
@Injectable()
export class RetentionRepository {
  constructor(private readonly em: EntityManager) {}

  /** Deletes at most `limit` usage rows created before `cutoff`; returns how many went. */
  async deleteBatch(cutoff: Date, limit: number): Promise<number> {
    const result = await this.em.fork().execute<{ affectedRows: number }>(
      `delete from usage_logs where id in (
         select id from usage_logs where created_at < ? limit ?
       )`,
      [cutoff, limit],
      'run',
    );
    return result.affectedRows;
  }
}
