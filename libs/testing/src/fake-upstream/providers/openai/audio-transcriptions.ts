import { audioSeconds } from '../../generation/audio-duration';
import { completionText } from '../../generation/completion-text';
import {
  dataFrame,
  jsonReply,
  SSE_CONTENT_TYPE,
  type Reply,
  type UpstreamRequest,
} from '../../fake-upstream.reply';
import type { MultipartBody } from '../../http/multipart-body';
import { invalidParameter, missingParameter } from './openai.family';

export type AudioTask = 'transcribe' | 'translate';

/** Words a speaker says per second, as whisper's transcripts of ordinary speech run (~3 tokens/s). */
const TRANSCRIPT_TOKENS_PER_SECOND = 3;
/** Audio input tokens per second for the gpt-4o transcribe models (the fake's convention). */
const AUDIO_TOKENS_PER_SECOND = 10;

const WHISPER_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt'];
const TOKEN_MODEL_FORMATS = ['json', 'text'];

const isWhisper = (model: string): boolean => model.startsWith('whisper');

function timestamp(seconds: number, separator: ',' | '.'): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms % 1000, 3)}`;
}

function textReply(body: string): Reply {
  return { kind: 'bytes', status: 200, contentType: 'text/plain; charset=utf-8', body: Buffer.from(body) };
}

/**
 * POST /v1/audio/transcriptions and /v1/audio/translations (multipart): a deterministic transcript
 * whose length follows the clip's duration, in the asked format. whisper-1 reports its usage as
 * seconds of audio (translations report none); the gpt-4o transcribe models report tokens and stream.
 */
export function audioTranscription(request: UpstreamRequest, task: AudioTask): Reply {
  const form = request.body as MultipartBody;
  const model = form.fields['model'];
  if (model === undefined || model === '') return missingParameter('model');
  const file = form.files.find((f) => f.field === 'file');
  if (file === undefined) return missingParameter('file');
  if (file.bytes === 0) return invalidParameter('file', 'The audio file is empty.');
  if (task === 'translate' && !isWhisper(model))
    return invalidParameter('model', `The model ${model} does not support translations.`);
  const format = form.fields['response_format'] ?? 'json';
  const formats = isWhisper(model) ? WHISPER_FORMATS : TOKEN_MODEL_FORMATS;
  if (!formats.includes(format))
    return invalidParameter('response_format', `response_format '${format}' is not supported for ${model}.`);
  const stream = form.fields['stream'] === 'true';
  if (stream && isWhisper(model))
    return invalidParameter('stream', 'Streaming is not supported for the whisper-1 model.');

  const seconds = audioSeconds(file.head, file.bytes);
  const transcript = completionText(
    Math.max(1, Math.ceil(seconds * TRANSCRIPT_TOKENS_PER_SECOND)),
    request.settings.chunks,
  );
  const promptTokens = request.promptTokens.count([form.fields['prompt'] ?? '']);
  const audioTokens = Math.ceil(seconds * AUDIO_TOKENS_PER_SECOND);
  const usage = isWhisper(model)
    ? { type: 'duration', seconds: Math.ceil(seconds) }
    : {
        type: 'tokens',
        input_tokens: audioTokens + promptTokens,
        input_token_details: { text_tokens: promptTokens, audio_tokens: audioTokens },
        output_tokens: transcript.tokens,
        total_tokens: audioTokens + promptTokens + transcript.tokens,
      };
  const withUsage = task === 'transcribe' ? { usage } : {};

  if (stream) {
    return {
      kind: 'stream',
      contentType: SSE_CONTENT_TYPE,
      head: '',
      deltas: transcript.chunks.map((delta) => dataFrame({ type: 'transcript.text.delta', delta })),
      tail: dataFrame({ type: 'transcript.text.done', text: transcript.text, usage }),
    };
  }
  const end = seconds;
  switch (format) {
    case 'text':
      return textReply(`${transcript.text}\n`);
    case 'srt':
      return textReply(`1\n${timestamp(0, ',')} --> ${timestamp(end, ',')}\n${transcript.text}\n\n`);
    case 'vtt':
      return textReply(`WEBVTT\n\n${timestamp(0, '.')} --> ${timestamp(end, '.')}\n${transcript.text}\n\n`);
    case 'verbose_json':
      return jsonReply(200, {
        task: task === 'transcribe' ? 'transcribe' : 'translate',
        language: 'english',
        duration: Number(seconds.toFixed(2)),
        text: transcript.text,
        segments: [{ id: 0, seek: 0, start: 0, end: Number(seconds.toFixed(2)), text: transcript.text }],
        ...withUsage,
      });
    default:
      return jsonReply(200, { text: transcript.text, ...withUsage });
  }
}
