import type { JsonObject } from './chat';
import { UntranslatableRequestError } from './translation-errors';
import type { NormalizedUsage } from './usage';

/**
 * Anthropic's own fields, carried from an Anthropic client through the canonical form to an Anthropic
 * upstream, and from its answer back. They sit under a symbol key: a JSON body built for another
 * upstream, or an answer rendered for an OpenAI client, leaves them out, and spreading keeps them.
 */
const ANTHROPIC_FIELDS = Symbol('tollgate:anthropic-fields');

export interface AnthropicFields {
  /** On a request: `thinking` ({type: 'enabled', budget_tokens} or {type: 'disabled'}). */
  thinking?: JsonObject;
  /** On a request: the client's `anthropic-beta` header (comma-separated beta names), for Anthropic only. */
  beta?: string;
  /**
   * On a request: what in it only an Anthropic channel takes (e.g. "documents"): another family's
   * channel refuses the request (refuseAnthropicOnlyContent) rather than drop it.
   */
  anthropicOnly?: string;
  /**
   * On a content part or a tool message: the Anthropic block it stands for, sent to an Anthropic upstream
   * as it came (a document; a tool_result whose content holds more than plain text).
   */
  block?: JsonObject;
  /** On a content part, a system part, a tool or a tool message: the block's `cache_control`. */
  cache_control?: JsonObject;
  /**
   * On an assistant message (history) or an answer's message: its Anthropic content blocks as they
   * were, thinking and redacted_thinking blocks with their signature and data.
   */
  blocks?: JsonObject[];
  /** On a stream chunk's delta: a thinking block's signature. */
  signature?: string;
  /** On a stream chunk's delta: a redacted_thinking block's data. */
  redacted_thinking?: string;
  /** On a stream's first chunk's delta: the usage Anthropic told in message_start (the prompt's tokens). */
  start_usage?: NormalizedUsage;
}

type Carrier = { [ANTHROPIC_FIELDS]?: AnthropicFields };

export function withAnthropicFields<T extends object>(target: T, fields: AnthropicFields): T {
  (target as Carrier)[ANTHROPIC_FIELDS] = fields;
  return target;
}

export function anthropicFieldsOf(target: object | null | undefined): AnthropicFields | undefined {
  return target === null || target === undefined ? undefined : (target as Carrier)[ANTHROPIC_FIELDS];
}

/** UntranslatableRequestError (400) for a request holding what only an Anthropic channel takes. */
export function refuseAnthropicOnlyContent(request: object): void {
  const only = anthropicFieldsOf(request)?.anthropicOnly;
  if (only !== undefined)
    throw new UntranslatableRequestError(
      `this model's channel does not take ${only}: only a Claude model on an Anthropic channel reads them`,
    );
}
