import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import {
  CHANNEL_AUTO_DISABLE_CALL,
  channelAutoDisableRequest,
  channelIdSchema,
  ok,
  type ChannelStatusResult,
  type Envelope,
} from '@tollgate/contracts';
import { ServiceOnly } from '@tollgate/platform';
import { ChannelsService } from './channels.service';

/** CHANNEL_AUTO_DISABLE_CALL: relay reports a channel whose key is invalid or whose quota ran out. */
@Controller('internal/channels')
export class ChannelStatusController {
  constructor(private readonly channels: ChannelsService) {}

  @ServiceOnly(CHANNEL_AUTO_DISABLE_CALL.audience)
  @Post(':id/auto-disable')
  @HttpCode(200)
  async autoDisable(@Param('id') id: string, @Body() body: unknown): Promise<Envelope<ChannelStatusResult>> {
    const result = await this.channels.autoDisable(
      channelIdSchema.parse(id),
      channelAutoDisableRequest.parse(body),
    );
    return ok(result);
  }
}
