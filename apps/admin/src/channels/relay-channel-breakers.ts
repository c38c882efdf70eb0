import { Injectable } from '@nestjs/common';
import {
  CHANNEL_BREAKERS_CALL,
  channelBreakersResult,
  type ChannelBreaker,
  type ChannelBreakersResult,
} from '@tollgate/contracts';
import {
  answerData,
  InjectLogger,
  InjectServiceConfig,
  ServiceCaller,
  type Logger,
} from '@tollgate/platform';
import type { AdminConfig } from '../config';

/** The channel list waits this long for relay at most: it answers without breakers after that. */
export const BREAKERS_CALL_TIMEOUT_MS = 1_000;

/** Channel id → what relay's breaker holds it out with; a channel not in it is closed or unknown. */
export type HeldChannels = ReadonlyMap<number, ChannelBreaker>;

const NONE: HeldChannels = new Map();

/** The breakers relay answered, keyed by channel, as the channel list shows them. */
export function heldChannelsOf(result: ChannelBreakersResult): HeldChannels {
  return new Map(
    result.channels.map((channel) => [channel.id, { state: channel.state, until: channel.next_trial_at }]),
  );
}

/**
 * Asks relay (CHANNEL_BREAKERS_CALL) which channels its circuit breakers hold out. Relay's breakers
 * live in each relay process: with several replicas the answer is that of the replica the call
 * reached. Never throws: a relay that is down, slow or answers nonsense gives no breakers, and the
 * first such failure after a good answer is logged at warn (once per outage, not once per list).
 */
@Injectable()
export class RelayChannelBreakers {
  private readonly relay: ServiceCaller;
  private failing = false;

  constructor(
    @InjectServiceConfig() config: AdminConfig,
    @InjectLogger() private readonly logger: Logger,
  ) {
    this.relay = new ServiceCaller(config.RELAY_URL, config.TOLLGATE_INTERNAL_TOKEN_SECRET);
  }

  async held(): Promise<HeldChannels> {
    let reason: unknown;
    try {
      const answer = await this.relay.send(CHANNEL_BREAKERS_CALL, { timeoutMs: BREAKERS_CALL_TIMEOUT_MS });
      const result = answer.status === 200 ? answerData(channelBreakersResult, answer.body) : undefined;
      if (result) {
        if (this.failing) this.logger.info("relay's channel breakers are read again");
        this.failing = false;
        return heldChannelsOf(result);
      }
      reason = `relay answered HTTP ${answer.status} without a breaker list`;
    } catch (error) {
      reason = error;
    }
    if (!this.failing) {
      this.logger.warn(
        { err: reason },
        "relay's channel breakers could not be read; the channel list shows none until relay answers",
      );
      this.failing = true;
    }
    return NONE;
  }
}
