/**
 * Deterministic unit-length vectors: the same input always gives the same vector, different
 * inputs give different ones, which is all a gateway test can check about embeddings.
 */

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: a tiny, well-known 32-bit PRNG; quality is irrelevant here, determinism is not. */
function nextRandom(state: { seed: number }): number {
  state.seed = (state.seed + 0x6d2b79f5) | 0;
  let t = state.seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}

export function embeddingVector(input: string, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  const state = { seed: fnv1a(input) };
  let squares = 0;
  for (let index = 0; index < dimensions; index += 1) {
    const value = nextRandom(state) * 2 - 1;
    vector[index] = value;
    squares += value * value;
  }
  const norm = Math.sqrt(squares) || 1;
  for (let index = 0; index < dimensions; index += 1) vector[index] = vector[index]! / norm;
  return vector;
}

/** OpenAI's `encoding_format: "base64"`: the little-endian float32 bytes, base64-encoded. */
export function embeddingBase64(vector: Float32Array): string {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');
}
