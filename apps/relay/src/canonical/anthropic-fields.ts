import type { JsonObject } from './chat';

/**
 * Anthropic's own fields, carried from an Anthropic client through the canonical form to an Anthropic
 * upstream, and from its answer back. They sit under a symbol key: a JSON body built for another
 * upstream, or an answer rendered for an OpenAI client, leaves them out, and spreading keeps them.
 */
const ANTHROPIC_FIELDS = Symbol('tollgate:anthropic-fields');

export interface AnthropicFields {
  /** On a request: `thinking` ({type: 'enabled', budget_tokens} or {type: 'disabled'}). */
  thinking?: JsonObject;
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
}

type Carrier = { [ANTHROPIC_FIELDS]?: AnthropicFields };

export function withAnthropicFields<T extends object>(target: T, fields: AnthropicFields): T {
  (target as Carrier)[ANTHROPIC_FIELDS] = fields;
  return target;
}

export function anthropicFieldsOf(target: object | null | undefined): AnthropicFields | undefined {
  return target === null || target === undefined ? undefined : (target as Carrier)[ANTHROPIC_FIELDS];
}
