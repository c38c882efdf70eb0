import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { ErrorCode } from '@tollgate/contracts';
import { servedModel, type CallerAccess } from '../access/caller-access';
import { RelayError } from '../errors/relay-error';
import type { CallContext } from '../pipeline/call-context';
import { costHeaders, withUsageCost } from '../pricing/call-cost';
import type { ClientReply } from '../pipeline/client-reply';
import { dispatchMetered, type RelayedAnswer } from '../pipeline/metered-dispatch';
import type { Metering, MeteredCall } from '../pipeline/metering';
import type { RelayMetrics } from '../pipeline/relay-metrics';
import type { TokenCounter } from '../pipeline/token-counter';
import type { Dispatched, UpstreamDispatcher } from '../pipeline/upstream-dispatcher';
import type { PriceBook } from '../pricing/price-book';
import { parsedEventData, relaySseStream } from '../pipeline/sse-relay';
import { serializeSseEvent } from '../sse/sse';
import { UnsupportedOperationError, type UploadForm, type UploadOperation } from '../providers';
import type { NormalizedUsage } from '../canonical';
import { spoolUpload, type SpooledUpload, type UploadLimits } from './audio-upload';
import { transcriptionEstimate, transcriptionUsage, transcriptText } from './transcription-usage';

export interface AudioRelayDeps {
  access: CallerAccess;
  prices: PriceBook;
  metering: Metering;
  dispatcher: UpstreamDispatcher;
  metrics: RelayMetrics;
  tokens: TokenCounter;
  uploads: UploadLimits;
  now: () => number;
}

/** The client's upload as it arrives: the request stream and its headers. */
export interface IncomingUpload {
  body: Readable;
  headers: IncomingHttpHeaders;
}

const MODEL_NAME = /^.{1,128}$/s;

/**
 * POST /v1/audio/transcriptions and /v1/audio/translations: the upload is spooled (never held in
 * memory), the model mapped, and the form sent on to an OpenAI-style channel; the answer (JSON,
 * text, subtitles or a transcript stream) comes back as the upstream sent it, and the call is
 * charged by the usage the upstream reports or by the transcript's tokens.
 */
export class AudioRelay {
  constructor(private readonly deps: AudioRelayDeps) {}

  async handle(
    context: CallContext,
    operation: UploadOperation,
    incoming: IncomingUpload,
    reply: ClientReply,
  ): Promise<void> {
    const upload = await spoolUpload(incoming.body, incoming.headers, this.deps.uploads);
    try {
      await this.relay(context, operation, upload, reply);
    } finally {
      await upload.discard();
    }
  }

  private async relay(
    context: CallContext,
    operation: UploadOperation,
    upload: SpooledUpload,
    reply: ClientReply,
  ): Promise<void> {
    const asked = upload.fields['model'] ?? '';
    if (!MODEL_NAME.test(asked))
      throw new RelayError(ErrorCode.ValidationFailed, 'Invalid request: model: a model name is required');
    const model = servedModel(context.caller, asked);
    this.deps.access.assertModelAllowed(context.caller, model);
    const quote = this.deps.prices.quote(model, context.caller.group);
    const metered = await this.deps.metering.open(
      context,
      quote,
      transcriptionEstimate(upload.file.bytes, Buffer.byteLength(upload.fields['prompt'] ?? '')),
    );
    reply.setHeaders(metered.rateLimitHeaders);
    const form: UploadForm = {
      fields: { ...upload.fields, model },
      file: { filename: upload.file.filename, blob: upload.file.blob },
    };
    await dispatchMetered(this.deps, {
      context,
      quote,
      model,
      metered,
      reply,
      operation: 'generate_content',
      build: (adapter, target) => {
        if (adapter.buildUploadRequest === undefined)
          throw new UnsupportedOperationError(adapter.name, operation);
        return adapter.buildUploadRequest(operation, form, target);
      },
      relay: (dispatched) => this.relayAnswer(context, dispatched, reply, metered),
    });
  }

  private async relayAnswer(
    context: CallContext,
    dispatched: Dispatched,
    reply: ClientReply,
    metered: MeteredCall,
  ): Promise<RelayedAnswer> {
    const header = dispatched.response.headers['content-type'];
    const contentType = (Array.isArray(header) ? header[0] : header) ?? 'text/plain; charset=utf-8';
    if (contentType.startsWith('text/event-stream')) return this.relayEvents(context, dispatched, reply);
    const text = await dispatched.response.body.text();
    const count = (t: string) => this.deps.tokens.countTextTokens(t);
    let usage: NormalizedUsage;
    if (contentType.includes('json')) {
      let payload: unknown;
      try {
        payload = JSON.parse(text) as unknown;
      } catch {
        throw new RelayError(
          ErrorCode.UpstreamError,
          'The upstream provider sent an answer that could not be read',
        );
      }
      usage = transcriptionUsage(payload, count);
    } else {
      const words = transcriptText(text);
      usage = { prompt_tokens: 0, completion_tokens: words === '' ? 0 : count(words), cached_tokens: 0 };
    }
    if (!reply.signal.aborted) {
      const cost = metered.costFor(usage);
      reply.setHeaders(costHeaders(cost));
      const body = contentType.includes('json') ? (withUsageCost(text, cost) ?? text) : text;
      reply.sendRaw(200, contentType, body);
    }
    return { usage, status: 'success', ttftMs: null, stream: false };
  }

  /** The gpt-4o transcribe models' stream: events pass through; the usage rides on the last one. */
  private async relayEvents(
    context: CallContext,
    dispatched: Dispatched,
    reply: ClientReply,
  ): Promise<RelayedAnswer> {
    let done: unknown;
    let deltas = '';
    let ttftMs: number | null = null;
    const status = await relaySseStream(
      reply,
      dispatched.response.body as AsyncIterable<Buffer>,
      async (event) => {
        const payload = parsedEventData(event.data) as { type?: unknown; delta?: unknown } | undefined;
        if (payload?.type === 'transcript.text.done') done = payload;
        else if (typeof payload?.delta === 'string') deltas += payload.delta;
        ttftMs ??= this.deps.now() - context.startedAt;
        await reply.write(serializeSseEvent(event));
      },
    );
    const usage = transcriptionUsage(done ?? { text: deltas }, (t) => this.deps.tokens.countTextTokens(t));
    return { usage, status, ttftMs, stream: true };
  }
}
