import { frameChunk } from './chunked-framing';

describe('frameChunk', () => {
  it("frames text by its UTF-8 length, not its characters'", () => {
    expect(frameChunk('data: привет\n\n')).toBe('14\r\ndata: привет\n\n\r\n');
  });

  it('frames bytes as they are, in one Buffer', () => {
    const framed = frameChunk(Buffer.from([0xff, 0x00, 0x0a]));
    expect(Buffer.isBuffer(framed)).toBe(true);
    expect(framed).toEqual(Buffer.from([0x33, 0x0d, 0x0a, 0xff, 0x00, 0x0a, 0x0d, 0x0a]));
  });
});
