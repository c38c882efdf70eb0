import { Controller, Get } from '@nestjs/common';
import { CHANNEL_BREAKERS_CALL, type ChannelBreakersResult } from '@tollgate/contracts';
import { ServiceOnly } from '@tollgate/platform';
import { RelayRuntime } from '../relay-runtime';
import type { HeldChannel } from '../routing/channel-breakers';

/** What admin's channel list shows of a held channel: the next trial in whole epoch seconds, rounded up. */
export function channelBreakersResultOf(held: readonly HeldChannel[]): ChannelBreakersResult {
  return {
    channels: held.map((channel) => ({
      id: channel.id,
      state: channel.state,
      next_trial_at: channel.nextTrialAtMs === null ? null : Math.ceil(channel.nextTrialAtMs / 1000),
    })),
  };
}

/**
 * Admin's channel list (CHANNEL_BREAKERS_CALL): the channels this relay process's circuit breakers
 * hold out. Internal, service token only. Before the hot path is composed no circuit exists yet.
 */
@Controller('internal/channels')
export class ChannelBreakersController {
  constructor(private readonly runtime: RelayRuntime) {}

  @Get('breakers')
  @ServiceOnly(CHANNEL_BREAKERS_CALL.audience)
  breakers(): ChannelBreakersResult {
    return channelBreakersResultOf(this.runtime.current()?.heldChannels() ?? []);
  }
}
