import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';

/** Only place that deletes usage_logs rows. */
@Injectable()
export class RetentionRepository {
  constructor(private readonly em: EntityManager) {}

  /** Deletes at most `limit` usage rows created before `cutoff`; returns how many went. */
  async deleteBatch(cutoff: Date, limit: number): Promise<number> {
    // `= any(array(…))`, not `in (…)`: with a uuid key the planner joined `in` by scanning the whole
    // table; the array is looked up in the primary key.
    const result = await this.em.fork().execute<{ affectedRows: number }>(
      `delete from usage_logs where event_id = any(array(
         select event_id from usage_logs where created_at < ? limit ?
       ))`,
      [cutoff, limit],
      'run',
    );
    return result.affectedRows;
  }
}
