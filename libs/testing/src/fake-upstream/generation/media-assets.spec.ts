import { crc32, inflateSync } from 'node:zlib';
import { FAKE_PNG, FAKE_SPEECH, MP3_FRAME_BYTES, MP3_FRAME_HEADER } from './media-assets';

describe('FAKE_PNG', () => {
  it('is a PNG whose chunks have valid CRCs and whose pixels inflate', () => {
    expect(FAKE_PNG.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const types: string[] = [];
    let offset = 8;
    while (offset < FAKE_PNG.length) {
      const length = FAKE_PNG.readUInt32BE(offset);
      const typeAndData = FAKE_PNG.subarray(offset + 4, offset + 8 + length);
      expect(FAKE_PNG.readUInt32BE(offset + 8 + length)).toBe(crc32(typeAndData));
      const type = typeAndData.subarray(0, 4).toString('ascii');
      types.push(type);
      if (type === 'IDAT') expect(inflateSync(typeAndData.subarray(4))).toHaveLength(1 + 3);
      offset += 12 + length;
    }
    expect(types).toEqual(['IHDR', 'IDAT', 'IEND']);
  });
});

describe('FAKE_SPEECH', () => {
  it('wav has a RIFF header that matches its data', () => {
    const wav = FAKE_SPEECH['wav']!.bytes;
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.toString('ascii', 8, 12)).toBe('WAVE');
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.readUInt32LE(40)).toBe(wav.length - 44);
    expect(FAKE_SPEECH['wav']!.contentType).toBe('audio/wav');
  });

  it('mp3 is a run of whole MPEG frames', () => {
    const mp3 = FAKE_SPEECH['mp3']!.bytes;
    expect(mp3.length % MP3_FRAME_BYTES).toBe(0);
    for (let offset = 0; offset < mp3.length; offset += MP3_FRAME_BYTES) {
      expect([...mp3.subarray(offset, offset + 4)]).toEqual(MP3_FRAME_HEADER);
    }
    expect(FAKE_SPEECH['mp3']!.contentType).toBe('audio/mpeg');
  });
});
