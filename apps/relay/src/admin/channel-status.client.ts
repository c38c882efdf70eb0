import { CHANNEL_AUTO_DISABLE_CALL, type ChannelAutoDisableRequest } from '@tollgate/contracts';
import { ServiceCaller, type Logger } from '@tollgate/platform';

const REASON_MAX_LENGTH = 500;
const CALL_TIMEOUT_MS = 10_000;

/**
 * Tells admin that a channel's key or account is dead (CHANNEL_AUTO_DISABLE_CALL), so the channel is
 * disabled for every replica and shown as auto-disabled. Fire and forget: the router has already taken
 * the channel out of this replica's plans.
 */
export class ChannelStatusClient {
  private readonly admin: ServiceCaller;

  constructor(
    adminUrl: string,
    secret: string,
    private readonly logger: Logger,
  ) {
    this.admin = new ServiceCaller(adminUrl, secret);
  }

  autoDisable(channelId: number, reason: string, statusCode: number | undefined): void {
    void this.send(channelId, reason, statusCode);
  }

  private async send(channelId: number, reason: string, statusCode: number | undefined): Promise<void> {
    const body: ChannelAutoDisableRequest = {
      reason: reason.slice(0, REASON_MAX_LENGTH),
      ...(statusCode === undefined ? {} : { status_code: statusCode }),
    };
    try {
      const answer = await this.admin.send(CHANNEL_AUTO_DISABLE_CALL, {
        params: { id: channelId },
        body,
        timeoutMs: CALL_TIMEOUT_MS,
      });
      if (answer.status < 200 || answer.status > 299) {
        this.logger.warn({ channelId, status: answer.status }, 'admin refused to auto-disable a channel');
      } else {
        this.logger.info({ channelId, statusCode }, 'channel auto-disabled');
      }
    } catch (error) {
      this.logger.warn(
        { channelId, reason: (error as Error).name },
        'admin could not be told to auto-disable a channel',
      );
    }
  }
}
