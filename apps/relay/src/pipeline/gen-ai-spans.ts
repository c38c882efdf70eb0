import { SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE, ATTR_SERVER_ADDRESS, ATTR_SERVER_PORT } from '@opentelemetry/semantic-conventions';
import type { NormalizedUsage } from '../canonical';
import type { PassThroughOperation } from '../providers/provider-adapter';
import type { CallStatus } from '../usage/usage-event';

/**
 * OpenTelemetry's gen_ai semantic conventions are still incubating; their own advice is to copy the
 * names rather than import the unstable entry point.
 */
export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  /** The name conventions before 1.37 used; kept so older back ends group the spans too. */
  system: 'gen_ai.system',
  requestModel: 'gen_ai.request.model',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
} as const;

/** The conventions' well-known operation names that relay's calls map to. */
/** The conventions' operation names, and two of ours for operations they do not name. */
export type GenAiOperation =
  'chat' | 'text_completion' | 'embeddings' | 'generate_content' | 'moderation' | 'rerank';

export const passThroughGenAiOperation = (operation: PassThroughOperation): GenAiOperation => {
  switch (operation) {
    case 'completions':
      return 'text_completion';
    case 'embeddings':
      return 'embeddings';
    case 'responses':
      return 'chat';
    case 'images.generations':
    case 'audio.speech':
      return 'generate_content';
    case 'moderations':
      return 'moderation';
    case 'rerank':
      return 'rerank';
  }
};

/** Relay's adapter names where the conventions name the provider differently. */
const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  gemini: 'gcp.gemini',
  azure: 'azure.ai.openai',
  deepseek: 'deepseek',
  mistral: 'mistral_ai',
  xai: 'x_ai',
  groq: 'groq',
};

/** One served upstream call, as the pipeline knows it when the call is over. */
export interface TracedUpstreamCall {
  operation: GenAiOperation;
  /** Relay's adapter name (openai, anthropic, gemini, azure, deepseek, …). */
  provider: string;
  channelId: number;
  /** The catalogue's model the client asked for. */
  model: string;
  /**
   * The model asked of the upstream (after the channel's mapping). gen_ai.response.model is left out:
   * the pipeline does not keep the name the upstream answered with, and a guess would mislead.
   */
  upstreamModel: string;
  url: string;
  usage: NormalizedUsage;
  status: CallStatus;
  isStream: boolean;
  /** performance.now() when the request went out and when the answer was over. */
  sentAt: number;
  endedAt: number;
}

const TRACER_NAME = '@tollgate/relay';

/**
 * A CLIENT span per served upstream call, named and attributed by the gen_ai conventions, recorded
 * once the call is over (start and end are the real times). Attributes are names, counts and the
 * upstream's host: never a prompt, a completion or a key. Relay creates this only when the process
 * exports spans; otherwise the pipeline holds undefined and pays nothing.
 */
export class GenAiSpans {
  private readonly tracer = trace.getTracer(TRACER_NAME);

  record(call: TracedUpstreamCall): void {
    const attributes: Attributes = {
      [GEN_AI.operationName]: call.operation,
      [GEN_AI.providerName]: PROVIDER_NAMES[call.provider] ?? call.provider,
      [GEN_AI.system]: PROVIDER_NAMES[call.provider] ?? call.provider,
      [GEN_AI.requestModel]: call.upstreamModel,
      [GEN_AI.inputTokens]: call.usage.prompt_tokens,
      [GEN_AI.outputTokens]: call.usage.completion_tokens,
      'tollgate.model': call.model,
      'tollgate.channel.id': call.channelId,
      'tollgate.stream': call.isStream,
      'tollgate.call.status': call.status,
      ...serverOf(call.url),
    };
    if (call.status === 'upstream_error') attributes[ATTR_ERROR_TYPE] = 'upstream_error';
    const span = this.tracer.startSpan(`${call.operation} ${call.upstreamModel}`, {
      kind: SpanKind.CLIENT,
      startTime: performance.timeOrigin + call.sentAt,
      attributes,
    });
    if (call.status === 'upstream_error') span.setStatus({ code: SpanStatusCode.ERROR });
    span.end(performance.timeOrigin + call.endedAt);
  }
}

/** The host and port only: a channel's base URL may carry a path or credentials, which stay out. */
function serverOf(url: string): Attributes {
  try {
    const parsed = new URL(url);
    const port = parsed.port === '' ? (parsed.protocol === 'http:' ? 80 : 443) : Number(parsed.port);
    return { [ATTR_SERVER_ADDRESS]: parsed.hostname, [ATTR_SERVER_PORT]: port };
  } catch {
    return {};
  }
}
