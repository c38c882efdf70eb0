import type { PassThroughOperation, UploadOperation } from '../provider-adapter';

/** Path of each operation below the provider's API root (`/v1` for OpenAI). */
export const OPENAI_OPERATION_PATHS: Readonly<Record<PassThroughOperation | 'chat.completions', string>> = {
  'chat.completions': '/chat/completions',
  completions: '/completions',
  embeddings: '/embeddings',
  'images.generations': '/images/generations',
  'audio.speech': '/audio/speech',
  responses: '/responses',
  moderations: '/moderations',
  rerank: '/rerank',
};

/** Operations whose streams report usage only when asked with `stream_options.include_usage`. */
export const OPERATIONS_WITH_STREAM_OPTIONS: ReadonlySet<PassThroughOperation | 'chat.completions'> = new Set(
  ['chat.completions', 'completions'],
);

/** Path of each upload operation below the provider's API root. */
export const OPENAI_UPLOAD_PATHS: Readonly<Record<UploadOperation, string>> = {
  'audio.transcriptions': '/audio/transcriptions',
  'audio.translations': '/audio/translations',
};
