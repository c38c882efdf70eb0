import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { ErrorCode } from '@tollgate/contracts';
import { RelayError } from '../errors/relay-error';
import type { CallContext } from '../pipeline/call-context';
import { costHeaders, withUsageCost } from '../pricing/call-cost';
import type { ClientReply } from '../pipeline/client-reply';
import {
  CallLifecycle,
  type AcceptedCall,
  type CallLifecycleDeps,
  type ModelCall,
  type RelayedAnswer,
} from '../pipeline/call-lifecycle';
import type { TokenCounter } from '../pipeline/token-counter';
import { parseJsonAnswer } from '../pipeline/upstream-failure';
import type { EstimateInput } from '../pricing/price-book';
import { parsedEventData, relaySseStream } from '../pipeline/sse-relay';
import { serializeSseEvent, type SseEvent } from '../sse/sse';
import {
  UnsupportedOperationError,
  type ChannelTarget,
  type ProviderAdapter,
  type UploadForm,
  type UploadOperation,
  type UpstreamUploadRequest,
} from '../providers';
import type { NormalizedUsage } from '../canonical';
import { spoolUpload, type SpooledUpload, type UploadLimits } from './audio-upload';
import { transcriptionEstimate, transcriptionUsage, transcriptText } from './transcription-usage';

export interface AudioRelayDeps extends CallLifecycleDeps {
  tokens: TokenCounter;
  uploads: UploadLimits;
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
  private readonly lifecycle: CallLifecycle;

  constructor(private readonly deps: AudioRelayDeps) {
    this.lifecycle = new CallLifecycle(deps);
  }

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
    await this.lifecycle.run(
      context,
      reply,
      [asked],
      (model) => new AudioCall(this.deps, operation, upload, model),
    );
  }
}

/** One upload on its model: the form resent from the spooled file to each channel tried. */
class AudioCall implements ModelCall {
  readonly operation = 'generate_content';
  private readonly form: UploadForm;

  constructor(
    private readonly deps: AudioRelayDeps,
    private readonly kind: UploadOperation,
    private readonly upload: SpooledUpload,
    model: string,
  ) {
    this.form = {
      fields: { ...upload.fields, model },
      file: { filename: upload.file.filename, blob: upload.file.blob },
    };
  }

  estimate(): EstimateInput {
    return transcriptionEstimate(
      this.upload.file.bytes,
      Buffer.byteLength(this.upload.fields['prompt'] ?? ''),
    );
  }

  buildRequest(adapter: ProviderAdapter, target: ChannelTarget): UpstreamUploadRequest {
    if (adapter.buildUploadRequest === undefined)
      throw new UnsupportedOperationError(adapter.name, this.kind);
    return adapter.buildUploadRequest(this.kind, this.form, target);
  }

  async relayAnswer(call: AcceptedCall): Promise<RelayedAnswer> {
    const { reply, metered, dispatched } = call;
    const header = dispatched.response.headers['content-type'];
    const contentType = (Array.isArray(header) ? header[0] : header) ?? 'text/plain; charset=utf-8';
    if (contentType.startsWith('text/event-stream')) return this.relayEvents(call);
    const text = await dispatched.response.body.text();
    const json = contentType.includes('json');
    const usage = json ? transcriptionUsage(parseJsonAnswer(text), this.countTokens) : this.textUsage(text);
    if (!reply.aborted) {
      const cost = metered.costFor(usage);
      reply.setHeaders(costHeaders(cost));
      reply.sendRaw(200, contentType, json ? (withUsageCost(text, cost) ?? text) : text);
    }
    return { usage, status: 'success', ttftMs: null, stream: false };
  }

  private readonly countTokens = (text: string): number => this.deps.tokens.countTextTokens(text);

  /** A text, SRT or WebVTT answer: its transcript's words are the output. */
  private textUsage(answer: string): NormalizedUsage {
    const words = transcriptText(answer);
    return {
      prompt_tokens: 0,
      completion_tokens: words === '' ? 0 : this.countTokens(words),
      cached_tokens: 0,
    };
  }

  /**
   * The gpt-4o transcribe models' stream: events pass through; the usage rides on the last one, and
   * the cost it is charged is added to that event's usage.
   */
  private async relayEvents(call: AcceptedCall): Promise<RelayedAnswer> {
    const transcript = new StreamedTranscript(this.deps, call, this.countTokens);
    const status = await relaySseStream(
      call.reply,
      call.dispatched.response.body as AsyncIterable<Buffer>,
      transcript.forward.bind(transcript),
      () => transcript.complete,
    );
    return { usage: transcript.usage(), status, ttftMs: transcript.ttftMs, stream: true };
  }
}

/** A transcript stream on its way to the client: its deltas, and the usage of its final event. */
class StreamedTranscript {
  ttftMs: number | null = null;
  /** The usage of the last `transcript.text.done` event, the one its cost was told for. */
  private doneUsage: NormalizedUsage | undefined;
  private deltas = '';

  constructor(
    private readonly deps: AudioRelayDeps,
    private readonly call: AcceptedCall,
    private readonly countTokens: (text: string) => number,
  ) {}

  /** Its `transcript.text.done` went by: the transcript is whole (a body failing after it is a success). */
  get complete(): boolean {
    return this.doneUsage !== undefined;
  }

  async forward(event: SseEvent): Promise<void> {
    const payload = parsedEventData(event.data) as { type?: unknown; delta?: unknown } | undefined;
    let data = event.data;
    if (payload?.type === 'transcript.text.done') {
      this.doneUsage = transcriptionUsage(payload, this.countTokens);
      data = withUsageCost(data, this.call.metered.costFor(this.doneUsage)) ?? data;
    } else if (typeof payload?.delta === 'string') this.deltas += payload.delta;
    this.ttftMs ??= this.deps.now() - this.call.context.startedAt;
    await this.call.reply.write(serializeSseEvent(data === event.data ? event : { ...event, data }));
  }

  /**
   * What the call is charged for: the final event's usage, else the deltas' tokens. A stream that
   * ends without a final event carries no cost: no event is left to carry it, and one made up would
   * be none of OpenAI's.
   */
  usage(): NormalizedUsage {
    return this.doneUsage ?? transcriptionUsage({ text: this.deltas }, this.countTokens);
  }
}
