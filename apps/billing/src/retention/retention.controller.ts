import { Controller, Delete, Query } from '@nestjs/common';
import { ErrorCode, ok, type Envelope } from '@tollgate/contracts';
import { AppException, Role, Roles } from '@tollgate/platform';
import { z } from 'zod';
import { RetentionService } from './retention.service';

const purgeQuerySchema = z.object({ target_timestamp: z.coerce.number().int().positive() });

/** new-api's `DELETE /api/log/?target_timestamp`: an admin trims the usage log by hand. */
@Controller('api/log')
export class RetentionController {
  constructor(private readonly retention: RetentionService) {}

  @Roles(Role.Admin)
  @Delete()
  async purge(@Query() query: unknown): Promise<Envelope<{ deleted: number }>> {
    const { target_timestamp } = purgeQuerySchema.parse(query);
    if (target_timestamp * 1000 > Date.now()) {
      throw new AppException(ErrorCode.ValidationFailed, 'target_timestamp must be in the past');
    }
    return ok({ deleted: await this.retention.purgeBefore(new Date(target_timestamp * 1000)) });
  }
}
