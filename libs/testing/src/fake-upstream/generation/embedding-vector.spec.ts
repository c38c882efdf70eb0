import { embeddingBase64, embeddingVector } from './embedding-vector';

describe('embeddingVector', () => {
  it('is deterministic, unit-length and input-dependent', () => {
    const first = embeddingVector('hello', 64);
    expect(embeddingVector('hello', 64)).toEqual(first);
    expect(embeddingVector('hullo', 64)).not.toEqual(first);
    const norm = Math.sqrt(first.reduce((sum, value) => sum + value * value, 0));
    expect(norm).toBeCloseTo(1, 5);
  });

  it('encodes base64 as little-endian float32, as OpenAI does', () => {
    const vector = embeddingVector('x', 4);
    const bytes = Buffer.from(embeddingBase64(vector), 'base64');
    expect(bytes).toHaveLength(16);
    expect(bytes.readFloatLE(4)).toBe(vector[1]);
  });
});
