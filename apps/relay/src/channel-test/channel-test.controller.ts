import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  channelModelsRequest,
  channelTestRequest,
  CHANNEL_MODELS_CALL,
  CHANNEL_TEST_CALL,
  ErrorCode,
  type ChannelModelsResult,
  type ChannelTestResult,
} from '@tollgate/contracts';
import { AppException, ServiceOnly, zodErrorMessage } from '@tollgate/platform';
import { ChannelModelsLister } from './channel-models-lister';
import { ChannelTester } from './channel-tester';

/** Admin's channel test and model list (CHANNEL_TEST_CALL, CHANNEL_MODELS_CALL): internal, service token only. */
@Controller('internal/channels')
export class ChannelTestController {
  constructor(
    private readonly tester: ChannelTester,
    private readonly modelsLister: ChannelModelsLister,
  ) {}

  @Post('test')
  @HttpCode(200)
  @ServiceOnly(CHANNEL_TEST_CALL.audience)
  async test(@Body() body: unknown): Promise<ChannelTestResult> {
    const parsed = channelTestRequest.safeParse(body);
    if (!parsed.success) throw new AppException(ErrorCode.ValidationFailed, zodErrorMessage(parsed.error));
    return this.tester.test(parsed.data);
  }

  /** Admin's "fetch models" (CHANNEL_MODELS_CALL): the upstream's model list for the channel's key. */
  @Post('models')
  @HttpCode(200)
  @ServiceOnly(CHANNEL_MODELS_CALL.audience)
  async models(@Body() body: unknown): Promise<ChannelModelsResult> {
    const parsed = channelModelsRequest.safeParse(body);
    if (!parsed.success) throw new AppException(ErrorCode.ValidationFailed, zodErrorMessage(parsed.error));
    return this.modelsLister.list(parsed.data);
  }
}
