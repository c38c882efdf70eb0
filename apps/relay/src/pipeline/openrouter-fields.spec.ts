import { ErrorCode } from '@tollgate/contracts';
import type { ChatCompletionRequest } from '../canonical';
import { RelayError } from '../errors/relay-error';
import { takeOpenRouterFields } from './openrouter-fields';

const aRequest = (fields: Record<string, unknown>): ChatCompletionRequest =>
  ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], ...fields }) as ChatCompletionRequest;

describe('takeOpenRouterFields', () => {
  it("takes OpenRouter's routing fields off, so no upstream is sent arguments it would refuse", () => {
    const request = aRequest({
      provider: { order: ['openai'], allow_fallbacks: true },
      route: 'fallback',
      transforms: ['middle-out'],
      plugins: [],
      usage: { include: true },
      temperature: 0.2,
    });
    takeOpenRouterFields(request);
    expect(request).toEqual(aRequest({ temperature: 0.2 }));
  });

  it('asks a stream for its usage chunk when the client asks the OpenRouter way', () => {
    const request = aRequest({ stream: true, usage: { include: true } });
    takeOpenRouterFields(request);
    expect(request.stream_options).toEqual({ include_usage: true });
  });

  it("keeps the client's own stream_options over usage.include, and asks nothing without it", () => {
    const declined = aRequest({
      stream: true,
      usage: { include: true },
      stream_options: { include_usage: false },
    });
    takeOpenRouterFields(declined);
    expect(declined.stream_options).toEqual({ include_usage: false });
    const plain = aRequest({ stream: true, usage: { include: false } });
    takeOpenRouterFields(plain);
    expect(plain.stream_options).toBeUndefined();
  });

  it('refuses plugins with 400 naming the field rather than answering without them', () => {
    const refusal = (() => {
      try {
        takeOpenRouterFields(aRequest({ plugins: [{ id: 'web' }] }));
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(RelayError);
    expect(refusal).toMatchObject({ code: ErrorCode.ValidationFailed, status: 400, param: 'plugins' });
  });
});
