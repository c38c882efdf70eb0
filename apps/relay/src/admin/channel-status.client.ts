import { CHANNEL_AUTO_DISABLE_CALL, servicePath, type ChannelAutoDisableRequest } from '@tollgate/contracts';
import { SERVICE_TOKEN_HEADER, ServiceTokenSigner, type Logger } from '@tollgate/platform';

const REASON_MAX_LENGTH = 500;
const CALL_TIMEOUT_MS = 10_000;

/**
 * Tells admin that a channel's key or account is dead (CHANNEL_AUTO_DISABLE_CALL), so the channel is
 * disabled for every replica and shown as auto-disabled. Fire and forget: the router has already taken
 * the channel out of this replica's plans.
 */
export class ChannelStatusClient {
  private readonly signer: ServiceTokenSigner;

  constructor(
    private readonly adminUrl: string,
    secret: string,
    private readonly logger: Logger,
  ) {
    this.signer = new ServiceTokenSigner(secret, CHANNEL_AUTO_DISABLE_CALL.audience);
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
      const response = await fetch(
        new URL(servicePath(CHANNEL_AUTO_DISABLE_CALL, { id: channelId }), this.adminUrl),
        {
          method: CHANNEL_AUTO_DISABLE_CALL.method,
          headers: { 'content-type': 'application/json', [SERVICE_TOKEN_HEADER]: await this.signer.token() },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
        },
      );
      if (!response.ok) {
        this.logger.warn({ channelId, status: response.status }, 'admin refused to auto-disable a channel');
      } else {
        this.logger.info({ channelId, statusCode }, 'channel auto-disabled');
      }
      await response.body?.cancel();
    } catch (error) {
      this.logger.warn(
        { channelId, reason: (error as Error).name },
        'admin could not be told to auto-disable a channel',
      );
    }
  }
}
