/** Bytes per second assumed for compressed audio (a 128 kbit/s MP3) when no header says better. */
export const COMPRESSED_AUDIO_BYTES_PER_SECOND = 16_000;

const WAV_HEADER_BYTES = 44;

/**
 * The length of an uploaded clip in seconds: exact for a canonical WAV file (its byte rate is in the
 * header), estimated from the size for anything else.
 */
export function audioSeconds(head: Buffer, bytes: number): number {
  const isWav =
    head.length >= WAV_HEADER_BYTES &&
    head.toString('ascii', 0, 4) === 'RIFF' &&
    head.toString('ascii', 8, 12) === 'WAVE';
  const byteRate = isWav ? head.readUInt32LE(28) : 0;
  if (byteRate > 0) return Math.max(0, bytes - WAV_HEADER_BYTES) / byteRate;
  return bytes / COMPRESSED_AUDIO_BYTES_PER_SECOND;
}

/** A silent mono 16-bit PCM WAV clip of the given length, for tests that upload audio. */
export function silentWav(seconds: number, sampleRate = 8_000): Buffer {
  const dataBytes = Math.round(seconds * sampleRate) * 2;
  const header = Buffer.alloc(WAV_HEADER_BYTES);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([header, Buffer.alloc(dataBytes)]);
}
