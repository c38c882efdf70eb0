export { FAKE_UPSTREAM_LISTEN_BACKLOG, startFakeUpstream, type FakeUpstream } from './fake-upstream.server';
export {
  DEFAULT_FAKE_UPSTREAM_KEYS,
  DEFAULT_FAKE_UPSTREAM_MODELS,
  DEFAULT_FAKE_UPSTREAM_OPTIONS,
  InvalidFakeUpstreamOptionsError,
  type FakeUpstreamBehaviour,
  type FakeUpstreamBehaviourPatch,
  type FakeUpstreamKeys,
  type FakeUpstreamOptions,
  type ResolvedFakeUpstreamOptions,
} from './fake-upstream.options';
export type { FakeUpstreamStats } from './fake-upstream.stats';
export {
  fakeUpstreamMain,
  FAKE_UPSTREAM_USAGE,
  parseFakeUpstreamArgs,
  runFakeUpstreamCli,
  type CliOutcome,
  type CliOutput,
} from './fake-upstream.cli';
export { countPromptTokens } from './generation/prompt-tokens';
export { completionText } from './generation/completion-text';
export { silentWav } from './generation/audio-duration';
export { TOOL_CALL_MARKER } from './generation/tool-choice';
export { fakeThinkingSignature, FAKE_THINKING } from './providers/anthropic/thinking-and-cache';
