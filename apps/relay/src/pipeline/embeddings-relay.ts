import {
  UnsupportedOperationError,
  type ChannelTarget,
  type ProviderAdapter,
  type UpstreamHttpRequest,
} from '../providers';
import type { EmbeddingsAnswer, EmbeddingsRequest, NormalizedUsage } from '../canonical';
import { costHeaders } from '../pricing/call-cost';
import type { EstimateInput } from '../pricing/price-book';
import type { CallContext } from './call-context';
import { CallLifecycle, type AcceptedCall, type ModelCall, type RelayedAnswer } from './call-lifecycle';
import type { ClientReply } from './client-reply';
import type { PassThroughRelayDeps } from './pass-through-relay';
import { unreadableAnswer } from './upstream-failure';

/** Renders the vectors in the client's dialect. */
export type RenderEmbeddings = (answer: EmbeddingsAnswer) => unknown;

/**
 * Embeddings for clients whose dialect is not the upstream's (Gemini's embedContent and
 * batchEmbedContents): the texts go to any channel family with an embeddings endpoint (OpenAI-style,
 * Azure, Gemini; Anthropic channels are skipped), the vectors come back in the client's shape. Charged
 * as /v1/embeddings is: the body's bytes reserved, the upstream's usage settled, or the texts counted
 * when it reports none (Gemini).
 */
export class EmbeddingsRelay {
  private readonly lifecycle: CallLifecycle;

  constructor(private readonly deps: PassThroughRelayDeps) {
    this.lifecycle = new CallLifecycle(deps);
  }

  async handle(
    context: CallContext,
    askedModel: string,
    input: EmbeddingsRequest,
    bodyBytes: number,
    reply: ClientReply,
    render: RenderEmbeddings,
  ): Promise<void> {
    const call = new EmbeddingsCall(this.deps, input, bodyBytes, render);
    // The texts name no model: the same call serves whichever model the key maps the asked one to.
    await this.lifecycle.run(context, reply, [askedModel], () => call);
  }
}

class EmbeddingsCall implements ModelCall {
  readonly operation = 'embeddings';

  constructor(
    private readonly deps: PassThroughRelayDeps,
    private readonly input: EmbeddingsRequest,
    private readonly bodyBytes: number,
    private readonly render: RenderEmbeddings,
  ) {}

  estimate(): EstimateInput {
    return { promptTokens: this.bodyBytes, maxOutputTokens: 0 };
  }

  buildRequest(adapter: ProviderAdapter, target: ChannelTarget): UpstreamHttpRequest {
    if (adapter.embeddings === undefined) throw new UnsupportedOperationError(adapter.name, 'embeddings');
    return adapter.embeddings.request(this.input, target);
  }

  async relayAnswer({ reply, metered, dispatched }: AcceptedCall): Promise<RelayedAnswer> {
    const { adapter, response } = dispatched;
    let answer: EmbeddingsAnswer;
    try {
      answer = adapter.embeddings!.parse(
        JSON.parse(await response.body.text()) as unknown,
        this.input.texts.length,
      );
    } catch {
      throw unreadableAnswer();
    }
    const usage: NormalizedUsage = answer.usage ?? {
      prompt_tokens: this.deps.tokens.countTextTokens(this.input.texts.join('\n')),
      completion_tokens: 0,
      cached_tokens: 0,
    };
    if (!reply.aborted) {
      reply.setHeaders(costHeaders(metered.costFor(usage)));
      reply.sendJson(200, this.render(answer));
    }
    return { usage, status: 'success', ttftMs: null, stream: false };
  }
}
