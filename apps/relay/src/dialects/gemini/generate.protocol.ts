import type { JsonObject, ChatCompletionChunk } from '../../canonical';
import { chatResponseToGeminiClient } from './response';
import { createGeminiClientStreamWriter, type GeminiClientStreamWriter } from './stream';
import { geminiClientRequestToChat } from './request';
import { renderRelayError, type RelayError } from '../../errors/relay-error';
import type { ChatClientProtocol, ChatRouteInput, ClientChatStream } from '../chat-client-protocol';
import { SSE_CONTENT_TYPE } from '../../sse/sse';

const sseData = (payload: unknown): string => `data: ${JSON.stringify(payload)}\r\n\r\n`;

/** `?alt=sse`: one `data:` event per GenerateContentResponse, as the Gemini SDKs ask for. */
class GeminiSseOut implements ClientChatStream {
  readonly contentType = SSE_CONTENT_TYPE;
  private readonly writer: GeminiClientStreamWriter = createGeminiClientStreamWriter();

  push(chunk: ChatCompletionChunk): string {
    return this.writer.push(chunk).map(sseData).join('');
  }

  end(): string {
    return this.writer.end().map(sseData).join('');
  }

  fail(error: RelayError): string {
    return sseData(renderRelayError('gemini', error).body);
  }
}

/** Without `alt=sse`, Gemini streams one JSON array whose elements arrive as they are ready. */
class GeminiJsonArrayOut implements ClientChatStream {
  readonly contentType = 'application/json; charset=utf-8';
  private readonly writer: GeminiClientStreamWriter = createGeminiClientStreamWriter();
  private opened = false;

  push(chunk: ChatCompletionChunk): string {
    return this.elements(this.writer.push(chunk));
  }

  end(): string {
    return `${this.elements(this.writer.end())}${this.opened ? '' : '['}]`;
  }

  fail(error: RelayError): string {
    return `${this.elements([renderRelayError('gemini', error).body as JsonObject])}]`;
  }

  private elements(objects: readonly unknown[]): string {
    let text = '';
    for (const object of objects) {
      text += `${this.opened ? ',\r\n' : '['}${JSON.stringify(object)}`;
      this.opened = true;
    }
    return text;
  }
}

const wantsSse = (input: ChatRouteInput): boolean => input.query?.['alt'] === 'sse';

/** `POST /v1beta/models/{model}:generateContent` and `:streamGenerateContent`. */
export const geminiGenerateProtocol: ChatClientProtocol = {
  protocol: 'gemini',
  toChatRequest: (input) => geminiClientRequestToChat(input.model ?? '', input.body, input.stream === true),
  isStream: (_request, input) => input.stream === true,
  renderResponse: (response) => chatResponseToGeminiClient(response),
  createStream: (_request, input) => (wantsSse(input) ? new GeminiSseOut() : new GeminiJsonArrayOut()),
};
