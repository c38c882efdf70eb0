import type { IncomingMessage } from 'node:http';
import Busboy from '@fastify/busboy';

/** An uploaded file as the fake sees it: counted and measured, never kept. */
export interface UploadedFile {
  field: string;
  filename: string;
  contentType: string;
  bytes: number;
  /** The first bytes, enough for a WAV header. */
  head: Buffer;
}

export interface MultipartBody {
  fields: Readonly<Record<string, string>>;
  files: readonly UploadedFile[];
}

export type MultipartResult =
  { ok: true; value: MultipartBody } | { ok: false; reason: 'too_large' | 'invalid_multipart' | 'aborted' };

const HEAD_BYTES = 64;

/** Reads a multipart/form-data body; files are counted as they stream past, not held. */
export function readMultipartBody(request: IncomingMessage, limitBytes: number): Promise<MultipartResult> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: MultipartResult): void => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    let parser: InstanceType<typeof Busboy>;
    try {
      parser = new Busboy({
        headers: request.headers as { 'content-type': string },
        limits: { fileSize: limitBytes },
      });
    } catch {
      request.resume();
      settle({ ok: false, reason: 'invalid_multipart' });
      return;
    }
    const fields: Record<string, string> = {};
    const files: UploadedFile[] = [];
    parser.on('field', (name: string, value: string) => {
      fields[name] = value;
    });
    parser.on('file', (field, stream, filename, _encoding, mimeType) => {
      const file: UploadedFile = { field, filename, contentType: mimeType, bytes: 0, head: Buffer.alloc(0) };
      files.push(file);
      stream.on('data', (chunk: Buffer) => {
        if (file.head.length < HEAD_BYTES)
          file.head = Buffer.concat([file.head, chunk]).subarray(0, HEAD_BYTES);
        file.bytes += chunk.length;
      });
      stream.on('limit', () => settle({ ok: false, reason: 'too_large' }));
    });
    parser.on('finish', () => settle({ ok: true, value: { fields, files } }));
    parser.on('error', () => settle({ ok: false, reason: 'invalid_multipart' }));
    request.on('error', () => settle({ ok: false, reason: 'aborted' }));
    request.pipe(parser);
  });
}
