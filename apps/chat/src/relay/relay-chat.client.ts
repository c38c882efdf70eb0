import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import {
  CHAT_LABEL_HEADER,
  CHAT_USER_HEADER,
  RELAY_CHAT_COMPLETION_CALL,
  RELAY_CHAT_MODELS_CALL,
  relayChatModelsResult,
} from '@tollgate/contracts';
import {
  InjectServiceConfig,
  REQUEST_ID_HEADER,
  SERVICE_TOKEN_HEADER,
  ServiceTokenSigner,
} from '@tollgate/platform';
import { Agent, request, type Dispatcher } from 'undici';
import type { ChatConfig } from '../config';

/** Relay refused the call before streaming: its HTTP status and the message from its OpenAI error body. */
export class RelayRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'RelayRefusal';
  }
}

export interface CompletionRequest {
  userId: number;
  chatId: number;
  /** Becomes the usage event's request id. */
  requestId: string;
  body: Record<string, unknown>;
  signal: AbortSignal;
}

/** Relay's internal chat calls, as the signed-in user, with a service token for relay's chat audience. */
@Injectable()
export class RelayChatClient implements OnModuleDestroy {
  private readonly signer: ServiceTokenSigner;
  // Answers stream for minutes: no body timeout; headers come once the upstream answered.
  private readonly agent = new Agent({ bodyTimeout: 0, headersTimeout: 300_000, keepAliveTimeout: 30_000 });
  private readonly base: string;

  constructor(@InjectServiceConfig() config: ChatConfig) {
    this.signer = new ServiceTokenSigner(
      config.TOLLGATE_INTERNAL_TOKEN_SECRET,
      RELAY_CHAT_COMPLETION_CALL.audience,
    );
    this.base = config.RELAY_URL;
  }

  async models(userId: number): Promise<string[]> {
    const res = await this.send(RELAY_CHAT_MODELS_CALL.path, {
      method: 'GET',
      headers: { [SERVICE_TOKEN_HEADER]: await this.signer.token(), [CHAT_USER_HEADER]: String(userId) },
    });
    if (res.statusCode !== 200) throw await refusalOf(res.statusCode, res.body);
    return relayChatModelsResult.parse(await res.body.json()).models;
  }

  /** The answer's SSE body; throws RelayRefusal when relay refuses before streaming. */
  async complete(call: CompletionRequest): Promise<AsyncIterable<Uint8Array>> {
    const res = await this.send(RELAY_CHAT_COMPLETION_CALL.path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SERVICE_TOKEN_HEADER]: await this.signer.token(),
        [CHAT_USER_HEADER]: String(call.userId),
        [CHAT_LABEL_HEADER]: String(call.chatId),
        [REQUEST_ID_HEADER]: call.requestId,
      },
      body: JSON.stringify({ ...call.body, stream: true }),
      signal: call.signal,
    });
    if (res.statusCode !== 200) throw await refusalOf(res.statusCode, res.body);
    return res.body;
  }

  /**
   * A relay that cannot be reached, or that dies before answering (a replica killed: "other side
   * closed"), is a 502 for the browser, not the chat's own 500. Not retried: relay may have served
   * the upstream already, and the user can regenerate. The browser's own stop stays an abort.
   */
  private async send(
    path: string,
    options: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string; signal?: AbortSignal },
  ): Promise<Dispatcher.ResponseData> {
    try {
      return await request(new URL(path, this.base), { ...options, dispatcher: this.agent });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new RelayRefusal(502, 'The model service could not be reached; try again');
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.agent.close();
  }
}

async function refusalOf(status: number, body: { text(): Promise<string> }): Promise<RelayRefusal> {
  const text = await body.text().catch(() => '');
  let message = `The model service answered ${status}`;
  try {
    const parsed = JSON.parse(text) as { error?: { message?: string } };
    if (parsed.error?.message) message = parsed.error.message;
  } catch {
    // not JSON: keep the generic message
  }
  return new RelayRefusal(status, message);
}
