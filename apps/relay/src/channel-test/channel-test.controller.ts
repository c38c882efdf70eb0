import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  channelTestRequest,
  CHANNEL_TEST_CALL,
  ErrorCode,
  type ChannelTestResult,
} from '@tollgate/contracts';
import { AppException, ServiceOnly, zodErrorMessage } from '@tollgate/platform';
import { RelayRuntime } from '../relay-runtime';

/** Admin's channel test (CHANNEL_TEST_CALL): internal, service token only. */
@Controller('internal/channels')
export class ChannelTestController {
  constructor(private readonly runtime: RelayRuntime) {}

  @Post('test')
  @HttpCode(200)
  @ServiceOnly(CHANNEL_TEST_CALL.audience)
  async test(@Body() body: unknown): Promise<ChannelTestResult> {
    const parsed = channelTestRequest.safeParse(body);
    if (!parsed.success) throw new AppException(ErrorCode.ValidationFailed, zodErrorMessage(parsed.error));
    return this.runtime.channelTester().test(parsed.data);
  }
}
