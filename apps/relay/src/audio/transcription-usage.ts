import { normalizeOpenAiUsage, type NormalizedUsage } from '../canonical';

/**
 * Audio a call can hold at most per byte of upload: 1 kB a second is below any bitrate speech is
 * encoded at (8 kbit/s), so bytes / 1000 bounds the clip's seconds for the reservation.
 */
const LOWEST_AUDIO_BYTES_PER_SECOND = 1000;
/** Input tokens a second of audio can cost on the token-billed transcribe models (with margin). */
const AUDIO_TOKENS_PER_SECOND = 10;
/** Transcript tokens a second of speech can produce (fast speech is about 3). */
const TRANSCRIPT_TOKENS_PER_SECOND = 4;

/** What the reservation holds for an upload: input and output bounded by the clip's longest duration. */
export function transcriptionEstimate(
  fileBytes: number,
  promptBytes: number,
): { promptTokens: number; maxOutputTokens: number } {
  const seconds = Math.ceil(fileBytes / LOWEST_AUDIO_BYTES_PER_SECOND);
  return {
    promptTokens: seconds * AUDIO_TOKENS_PER_SECOND + promptBytes,
    maxOutputTokens: seconds * TRANSCRIPT_TOKENS_PER_SECOND,
  };
}

/** Subtitle numbering, cue timings and the WebVTT header: not words of the transcript. */
const SUBTITLE_LINE = /^(?:\d+|WEBVTT.*|.*-->.*)$/;

/** The transcript's words in a text, SRT or WebVTT answer. */
export function transcriptText(answer: string): string {
  return answer
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '' && !SUBTITLE_LINE.test(line.trim()))
    .join('\n');
}

/**
 * The usage of a transcription or translation. The gpt-4o transcribe models report tokens
 * (`usage.type: "tokens"`), charged as reported. whisper-1 reports seconds of audio or nothing
 * (translations): it is charged, as new-api does, by the tokens of the transcript it produced, at the
 * model's output price (so a per-minute price is entered per transcript token; see docs/relay.md).
 */
export function transcriptionUsage(payload: unknown, countText: (text: string) => number): NormalizedUsage {
  const record = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {};
  const usage = record['usage'] as { type?: unknown } | undefined;
  if (usage?.type === 'tokens') {
    const reported = normalizeOpenAiUsage(usage);
    if (reported !== undefined) return reported;
  }
  const text = typeof record['text'] === 'string' ? record['text'] : '';
  return { prompt_tokens: 0, completion_tokens: text === '' ? 0 : countText(text), cached_tokens: 0 };
}
