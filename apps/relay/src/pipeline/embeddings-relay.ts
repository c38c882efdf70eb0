import { ErrorCode } from '@tollgate/contracts';
import { servedModel } from '../access/caller-access';
import { RelayError } from '../errors/relay-error';
import { UnsupportedOperationError } from '../providers';
import type { EmbeddingsAnswer, EmbeddingsRequest, NormalizedUsage } from '../canonical';
import { costHeaders } from '../pricing/call-cost';
import type { CallContext } from './call-context';
import type { ClientReply } from './client-reply';
import { dispatchMetered } from './metered-dispatch';
import type { PassThroughRelayDeps } from './pass-through-relay';

/**
 * Embeddings for clients whose dialect is not the upstream's (Gemini's embedContent and
 * batchEmbedContents): the texts go to any channel family with an embeddings endpoint (OpenAI-style,
 * Azure, Gemini; Anthropic channels are skipped), the vectors come back in the client's shape. Charged
 * as /v1/embeddings is: the body's bytes reserved, the upstream's usage settled, or the texts counted
 * when it reports none (Gemini).
 */
export class EmbeddingsRelay {
  constructor(private readonly deps: PassThroughRelayDeps) {}

  async handle(
    context: CallContext,
    askedModel: string,
    input: EmbeddingsRequest,
    bodyBytes: number,
    reply: ClientReply,
    render: (answer: EmbeddingsAnswer) => unknown,
  ): Promise<void> {
    const model = servedModel(context.caller, askedModel);
    this.deps.access.assertModelAllowed(context.caller, model);
    const quote = this.deps.prices.quote(model, context.caller.group);
    const metered = await this.deps.metering.open(context, quote, {
      promptTokens: bodyBytes,
      maxOutputTokens: 0,
    });
    reply.setHeaders(metered.rateLimitHeaders);
    await dispatchMetered(this.deps, {
      context,
      quote,
      model,
      metered,
      reply,
      operation: 'embeddings',
      build: (adapter, target) => {
        if (adapter.embeddings === undefined) throw new UnsupportedOperationError(adapter.name, 'embeddings');
        return adapter.embeddings.request(input, target);
      },
      relay: async ({ adapter, response }) => {
        let answer: EmbeddingsAnswer;
        try {
          answer = adapter.embeddings!.parse(
            JSON.parse(await response.body.text()) as unknown,
            input.texts.length,
          );
        } catch {
          throw new RelayError(
            ErrorCode.UpstreamError,
            'The upstream provider sent an answer that could not be read',
          );
        }
        const usage: NormalizedUsage = answer.usage ?? {
          prompt_tokens: this.deps.tokens.countTextTokens(input.texts.join('\n')),
          completion_tokens: 0,
          cached_tokens: 0,
        };
        if (!reply.signal.aborted) {
          reply.setHeaders(costHeaders(metered.costFor(usage)));
          reply.sendJson(200, render(answer));
        }
        return { usage, status: 'success', ttftMs: null, stream: false };
      },
    });
  }
}
