import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ErrorCode,
  ok,
  SESSION_LOOKUP,
  sessionLookupRequestSchema,
  type Envelope,
  type SessionIdentity,
} from '@tollgate/contracts';
import { AppException, ServiceOnly } from '@tollgate/platform';
import { AccessTokensService } from '../access-tokens/access-tokens.service';
import { SessionsService } from './sessions.service';

/** The gateway's session look-up: no identity token, a service token for this audience instead. */
@Controller()
@ServiceOnly(SESSION_LOOKUP.audience)
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
