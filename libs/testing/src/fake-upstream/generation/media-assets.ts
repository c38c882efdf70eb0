import { crc32, deflateSync } from 'node:zlib';

/** Small but valid media files, built once at load so that clients and decoders accept them. */

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

function buildPng(width: number, height: number, rgb: readonly [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: truecolour
  // compression, filter and interlace methods stay 0
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x += 1) row.set(rgb, 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const SPEECH_SAMPLE_RATE = 24_000;
const SPEECH_SECONDS = 0.1;

function buildPcmSilence(): Buffer {
  return Buffer.alloc(Math.round(SPEECH_SAMPLE_RATE * SPEECH_SECONDS) * 2);
}

function buildWav(pcm: Buffer): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(SPEECH_SAMPLE_RATE, 24);
  header.writeUInt32LE(SPEECH_SAMPLE_RATE * 2, 28); // byte rate
  header.writeUInt16LE(2, 32); // block align
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

/**
 * MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, mono frames whose side information and main data
 * are all zero: every decoder plays them as silence. 144 * 128000 / 44100 = 417 bytes a frame.
 */
export const MP3_FRAME_HEADER: readonly number[] = [0xff, 0xfb, 0x90, 0xc0];
export const MP3_FRAME_BYTES = 417;

function buildMp3Silence(frames: number): Buffer {
  const frame = Buffer.alloc(MP3_FRAME_BYTES);
  frame.set(MP3_FRAME_HEADER, 0);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

export const FAKE_PNG: Buffer = buildPng(1, 1, [0x4f, 0x7c, 0xac]);
export const FAKE_PNG_BASE64: string = FAKE_PNG.toString('base64');

export interface SpeechAudio {
  contentType: string;
  bytes: Buffer;
}

const PCM_SILENCE = buildPcmSilence();

/** Keyed by the `response_format` values of OpenAI's /v1/audio/speech that the fake can produce. */
export const FAKE_SPEECH: Readonly<Record<string, SpeechAudio>> = Object.freeze({
  mp3: { contentType: 'audio/mpeg', bytes: buildMp3Silence(10) },
  wav: { contentType: 'audio/wav', bytes: buildWav(PCM_SILENCE) },
  pcm: { contentType: 'audio/pcm', bytes: PCM_SILENCE },
});
