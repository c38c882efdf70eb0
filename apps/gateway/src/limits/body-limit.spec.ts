import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { bodyLimitFor, BodyTooLargeError, limitedBody } from './body-limit';

const LIMIT = 1000;

function incoming(headers: IncomingHttpHeaders, chunks: Buffer[]): IncomingMessage {
  return Object.assign(Readable.from(chunks), { headers }) as unknown as IncomingMessage;
}

async function drain(body: Readable): Promise<{ bytes: number; error?: unknown }> {
  let bytes = 0;
  try {
    for await (const chunk of body) bytes += (chunk as Buffer).length;
    return { bytes };
  } catch (error) {
    return { bytes, error };
  }
}

const chunks = (count: number, size: number) => Array.from({ length: count }, () => Buffer.alloc(size, 'z'));

describe('limitedBody', () => {
  it('refuses a declared length over the limit before reading anything', () => {
    const req = incoming({ 'content-length': String(LIMIT + 1) }, chunks(1, LIMIT + 1));

    expect(limitedBody(req, LIMIT)).toBeNull();
    expect(req.readableFlowing).toBeNull();
  });

  it('passes a declared length at or under the limit through untouched', () => {
    const atLimit = incoming({ 'content-length': String(LIMIT) }, chunks(1, LIMIT));
    const empty = incoming({ 'content-length': '0' }, []);

    expect(limitedBody(atLimit, LIMIT)).toBe(atLimit);
    expect(limitedBody(empty, LIMIT)).toBe(empty);
  });

  it('counts a chunked body and passes it whole when it stays under the limit', async () => {
    const body = limitedBody(incoming({ 'transfer-encoding': 'chunked' }, chunks(4, 250)), LIMIT);

    expect(await drain(body!)).toEqual({ bytes: 1000 });
  });

  it('cuts a chunked body at the limit with a BodyTooLargeError', async () => {
    const body = limitedBody(incoming({ 'transfer-encoding': 'chunked' }, chunks(10, 300)), LIMIT);

    const { bytes, error } = await drain(body!);

    expect(bytes).toBeLessThanOrEqual(LIMIT);
    expect(error).toBeInstanceOf(BodyTooLargeError);
    expect((error as BodyTooLargeError).limit).toBe(LIMIT);
  });

  it('passes on an error of the client’s stream', async () => {
    const req = Object.assign(new Readable({ read() {} }), { headers: {} }) as unknown as IncomingMessage;
    const body = limitedBody(req, LIMIT);
    const drained = drain(body!);

    req.push(Buffer.alloc(10));
    req.destroy(new Error('client reset'));

    expect((await drained).error).toEqual(new Error('client reset'));
  });
});

describe('bodyLimitFor', () => {
  const limits = {
    bodyLimitBytes: 10_000_000,
    apiBodyLimitBytes: 1_000_000,
    uploadBodyLimitBytes: 27_000_000,
  };
  it('gives model input (relay, and chat messages with images) the /v1 limit, other /api calls the smaller one', () => {
    expect(bodyLimitFor('relay', limits)).toBe(10_000_000);
    expect(bodyLimitFor('chat', limits)).toBe(10_000_000);
    expect(bodyLimitFor('auth', limits)).toBe(1_000_000);
    expect(bodyLimitFor('billing', { ...limits, bodyLimitBytes: 500, apiBodyLimitBytes: 1_000 })).toBe(500);
  });

  it('gives audio uploads to the relay the upload limit, and only them', () => {
    expect(bodyLimitFor('relay', limits, '/v1/audio/transcriptions')).toBe(27_000_000);
    expect(bodyLimitFor('relay', limits, '/v1/audio/translations')).toBe(27_000_000);
    expect(bodyLimitFor('relay', limits, '/v1/audio/speech')).toBe(10_000_000);
    expect(bodyLimitFor('chat', limits, '/v1/audio/transcriptions')).toBe(10_000_000);
  });
});
