import { Inject, Injectable } from '@nestjs/common';
import { RETENTION_SETTINGS, type RetentionSettings } from './retention-settings';
import { RetentionRepository } from './retention.repository';

/**
 * Trims the usage log in bounded batches: each DELETE is short, so the usage consumer (and, on
 * PGlite, every other query) waits at most one batch. Daily statistics and the ledger stay.
 */
@Injectable()
export class RetentionService {
  constructor(
    private readonly repository: RetentionRepository,
    @Inject(RETENTION_SETTINGS) private readonly settings: RetentionSettings,
  ) {}

  /** Deletes every usage row created before `cutoff`; `shouldStop` is asked between batches. */
  async purgeBefore(cutoff: Date, shouldStop: () => boolean = () => false): Promise<number> {
    let deleted = 0;
    for (;;) {
      const batch = await this.repository.deleteBatch(cutoff, this.settings.batchSize);
      deleted += batch;
      if (batch < this.settings.batchSize || shouldStop()) return deleted;
    }
  }
}
