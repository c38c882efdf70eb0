import { serializeSseEvent, serializeSseJson, SseDecoder, type SseEvent } from './sse';

function decodeInPieces(bytes: Uint8Array, pieceSize: number): SseEvent[] {
  const decoder = new SseDecoder();
  const events: SseEvent[] = [];
  for (let offset = 0; offset < bytes.length; offset += pieceSize) {
    events.push(...decoder.push(bytes.subarray(offset, offset + pieceSize)));
  }
  events.push(...decoder.end());
  return events;
}

const STREAM =
  'event: message_start\r\ndata: {"text":"héllo 世界 🙂"}\r\n\r\n' +
  ': keep-alive comment\n\n' +
  'data: first line\ndata: second line\n\n' +
  'data: [DONE]\n\n';

const EXPECTED: SseEvent[] = [
  { event: 'message_start', data: '{"text":"héllo 世界 🙂"}' },
  { data: 'first line\nsecond line' },
  { data: '[DONE]' },
];

describe('SseDecoder', () => {
  const bytes = new TextEncoder().encode(STREAM);

  it('decodes the same events whatever the chunk size, including splits inside \\r\\n and UTF-8 characters', () => {
    for (const pieceSize of [1, 2, 3, 5, 7, 13, bytes.length]) {
      expect(decodeInPieces(bytes, pieceSize)).toEqual(EXPECTED);
    }
  });

  it('drops a byte order mark the stream begins with, even one split across reads, and only there', () => {
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('data: \uFEFFa\n\n')]);
    for (const pieceSize of [1, 2, 4, withBom.length]) {
      expect(decodeInPieces(withBom, pieceSize)).toEqual([{ data: '\uFEFFa' }]);
    }
  });

  it('decodes invalid UTF-8 as the Encoding standard does, whatever the chunk size', () => {
    const invalid = new Uint8Array([
      ...new TextEncoder().encode('data: a'),
      0xff,
      0xe4,
      0xb8,
      0x41,
      0xf0,
      0x9f,
      0x99,
      0x82,
      0xc3,
      ...new TextEncoder().encode('\n\n'),
    ]);
    const data = new TextDecoder().decode(invalid).slice('data: '.length, -2);
    for (const pieceSize of [1, 2, 3, invalid.length]) {
      expect(decodeInPieces(invalid, pieceSize)).toEqual([{ data }]);
    }
  });

  it('accepts string chunks as well as bytes', () => {
    const decoder = new SseDecoder();
    expect([...decoder.push('data: {"a"'), ...decoder.push(':1}\n'), ...decoder.push('\n')]).toEqual([
      { data: '{"a":1}' },
    ]);
  });

  it('drops an event cut off before its blank line, as the SSE format says', () => {
    const decoder = new SseDecoder();
    expect(decoder.push('data: complete\n\ndata: cut')).toEqual([{ data: 'complete' }]);
    expect(decoder.end()).toEqual([]);
  });
});

describe('serializeSseEvent', () => {
  it('writes the event name and splits multi-line data into data lines, which decode back to the same event', () => {
    const event = { event: 'content_block_delta', data: 'one\ntwo' };
    const text = serializeSseEvent(event);
    expect(text).toBe('event: content_block_delta\ndata: one\ndata: two\n\n');
    expect(new SseDecoder().push(text)).toEqual([event]);
  });

  it('serialises JSON payloads as one data line', () => {
    expect(serializeSseJson({ a: 'b' })).toBe('data: {"a":"b"}\n\n');
    expect(serializeSseJson({ type: 'ping' }, 'ping')).toBe('event: ping\ndata: {"type":"ping"}\n\n');
  });

  it('keeps line breaks inside JSON strings on the one data line, and they decode back', () => {
    const payload = { text: 'one\ntwo\r\nthree\rfour\u2028five' };
    const text = serializeSseJson(payload, 'delta');
    expect(text.split('\n')).toHaveLength(4); // event line, data line, blank line, ''
    const [decoded] = new SseDecoder().push(text);
    expect(decoded?.event).toBe('delta');
    expect(JSON.parse(decoded!.data)).toEqual(payload);
  });
});
