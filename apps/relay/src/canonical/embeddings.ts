import type { NormalizedUsage } from './usage';

/** Texts to embed, whatever the client's dialect. */
export interface EmbeddingsRequest {
  texts: readonly string[];
  /** Asked vector size, for models that can shorten their vectors. */
  dimensions?: number;
}

export interface EmbeddingsAnswer {
  /** One vector per text, in order. */
  vectors: number[][];
  /** Absent when the upstream reports none (Gemini): the relay counts the texts. */
  usage?: NormalizedUsage;
}

/** An embedding as every family sends it: an array of floats. */
export function isVector(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((x) => typeof x === 'number');
}
