import { ErrorCode } from '@tollgate/contracts';
import { RelayError } from '../errors/relay-error';
import { UnsupportedOperationError } from '../providers';
import type { ChatCompletionRequest } from '../canonical';
import type { CallAbort } from '../upstream/call-abort';
import type { CallContext } from './call-context';
import { admitModel, withModel, type ModelAdmissionDeps } from './call-lifecycle';
import type { TokenCounter } from './token-counter';
import type { UpstreamDispatcher } from './upstream-dispatcher';
import { unreadableAnswer } from './upstream-failure';

export interface TokenCountRelayDeps extends ModelAdmissionDeps {
  dispatcher: UpstreamDispatcher;
  tokens: TokenCounter;
}

/**
 * Counts a prompt's tokens (Anthropic's `count_tokens`, Gemini's `countTokens`) for any channel
 * family: exact from a channel whose upstream counts (Anthropic, Gemini), given the prompt the chat
 * call would send it; with the relay's tokenizer when no channel of the model can. A count is free: it
 * reserves nothing, writes no usage record, and the prompt, as everywhere, is never stored or logged.
 * It still needs a key that may call the model.
 */
export class TokenCountRelay {
  constructor(private readonly deps: TokenCountRelayDeps) {}

  async count(context: CallContext, asked: ChatCompletionRequest, abort: CallAbort): Promise<number> {
    // An unknown or unpriced model is refused here as a call to it would be (404).
    const { model } = admitModel(this.deps, context.caller, asked.model);
    const request = withModel(asked, model);
    let dispatched;
    try {
      dispatched = await this.deps.dispatcher.dispatch(context, model, abort, (adapter, target) => {
        if (adapter.tokenCounting === undefined)
          throw new UnsupportedOperationError(adapter.name, 'token counting');
        return adapter.tokenCounting.request(request, target);
      });
    } catch (error) {
      // No channel of the model counts (or it has none serving now): the tokenizer's count.
      if (error instanceof RelayError && error.code === ErrorCode.NoChannelAvailable)
        return this.deps.tokens.countPromptTokens(request);
      throw error;
    }
    const { adapter, response, release } = dispatched;
    try {
      const body = JSON.parse(await response.body.text()) as unknown;
      return adapter.tokenCounting!.parse(body);
    } catch {
      throw unreadableAnswer();
    } finally {
      release();
    }
  }
}
