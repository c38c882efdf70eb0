import { Controller, Get, Param, Query } from '@nestjs/common';
import {
  ErrorCode,
  GENERATION_CALL,
  KEY_USAGE_CALL,
  ok,
  type Envelope,
  type GenerationResult,
  type KeyUsageResult,
} from '@tollgate/contracts';
import { AppException, ServiceOnly } from '@tollgate/platform';
import { z } from 'zod';
import { moscowDay } from '../statistics/moscow-day';
import { KeyUsageRepository } from './key-usage.repository';

const tokenParams = z.object({ tokenId: z.coerce.number().int().positive().max(2_147_483_647) });
const generationParams = z.object({
  userId: z.coerce.number().int().positive().max(2_147_483_647),
  id: z.string().min(1).max(128),
});
const generationQuery = z.object({
  token_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});

/** Service-to-service only: relay answers GET /v1/key and GET /v1/generation with these. */
@Controller()
export class KeyUsageController {
  constructor(private readonly usage: KeyUsageRepository) {}

  @ServiceOnly(KEY_USAGE_CALL.audience)
  @Get(KEY_USAGE_CALL.path)
  async keyUsage(@Param() params: unknown): Promise<Envelope<KeyUsageResult>> {
    const { tokenId } = tokenParams.parse(params);
    const today = moscowDay(Math.floor(Date.now() / 1000));
    return ok(await this.usage.keyUsage(tokenId, today, `${today.slice(0, 8)}01`));
  }

  @ServiceOnly(GENERATION_CALL.audience)
  @Get(GENERATION_CALL.path)
  async generation(@Param() params: unknown, @Query() query: unknown): Promise<Envelope<GenerationResult>> {
    const { userId, id } = generationParams.parse(params);
    const { token_id: tokenId } = generationQuery.parse(query);
    const found = await this.usage.generation(userId, id, tokenId);
    if (found === undefined) throw new AppException(ErrorCode.NotFound, `No call with the id ${id}`);
    return ok(found);
  }
}
