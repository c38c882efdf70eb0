import { ErrorCode } from '@tollgate/contracts';
import type { ChatCompletionRequest } from '../canonical';
import { RelayError } from '../errors/relay-error';

/**
 * OpenRouter's own choices of provider and prompt handling. Tollgate routes by its channels, so they
 * mean nothing here, and an upstream that checks its arguments (OpenAI's own API) would refuse the
 * whole call with 400 for naming one.
 */
const OPENROUTER_ROUTING_FIELDS = ['provider', 'route', 'transforms'] as const;

/**
 * Takes OpenRouter's own fields off a chat request, so that a client moved from OpenRouter works as
 * it is: the routing fields are dropped; `usage: {include: true}` (OpenRouter's way of asking for the
 * usage and cost, which a stream then ends with) asks what `stream_options.include_usage` asks.
 * `plugins` (web search, file parsing) would change the answer and Tollgate has none, so a request
 * naming one is refused rather than answered without it. `models` is taken by takeModelFallbacks.
 */
export function takeOpenRouterFields(request: ChatCompletionRequest): void {
  const record = request as unknown as Record<string, unknown>;
  for (const field of OPENROUTER_ROUTING_FIELDS) delete record[field];
  const plugins = record['plugins'];
  if (Array.isArray(plugins) && plugins.length > 0)
    throw new RelayError(
      ErrorCode.ValidationFailed,
      'OpenRouter plugins (web search, file parsing) are not available here: send the request without plugins',
      undefined,
      undefined,
      'plugins',
    );
  delete record['plugins'];
  const usage = record['usage'];
  delete record['usage'];
  if (wantsUsage(usage) && request.stream === true && request.stream_options?.include_usage === undefined)
    request.stream_options = { ...request.stream_options, include_usage: true };
}

function wantsUsage(usage: unknown): boolean {
  return typeof usage === 'object' && usage !== null && (usage as { include?: unknown }).include === true;
}
