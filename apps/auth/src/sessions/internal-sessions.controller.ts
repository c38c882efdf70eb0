import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import {
  ErrorCode,
  ok,
  SESSION_LOOKUP,
  sessionLookupRequestSchema,
  type Envelope,
  type SessionIdentity,
} from '@tollgate/contracts';
import { AppException, Public } from '@tollgate/platform';
import { AccessTokensService } from '../access-tokens/access-tokens.service';
import { ServiceTokenGuard } from './service-token.guard';
import { SessionsService } from './sessions.service';

/** The gateway's session look-up. @Public() only lifts the identity-token rule: the service token guards it. */
@Controller()
@Public()
@UseGuards(ServiceTokenGuard)
export class InternalSessionsController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly accessTokens: AccessTokensService,
  ) {}

  @Post(SESSION_LOOKUP.path)
  @HttpCode(200)
  async resolve(@Body() body: unknown): Promise<Envelope<SessionIdentity>> {
    const parsed = sessionLookupRequestSchema.safeParse(body);
    const identity = !parsed.success
      ? null
      : 'session' in parsed.data
        ? await this.sessions.resolve(parsed.data.session)
        : await this.accessTokens.resolve(parsed.data.access_token);
    if (!identity) throw new AppException(ErrorCode.Unauthenticated, 'No such session');
    return ok(identity);
  }
}
