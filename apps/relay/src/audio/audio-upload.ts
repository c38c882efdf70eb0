import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Busboy from '@fastify/busboy';
import { ErrorCode } from '@tollgate/contracts';
import { RelayError } from '../errors/relay-error';

export interface UploadLimits {
  /** Largest audio file (OpenAI's limit is 25 MB). */
  fileBytes: number;
  /** Where uploads are spooled for the length of a call; a private directory is made per call. */
  directory: string;
}

/** An upload spooled to a private file, with its form fields; `discard` deletes the file. */
export interface SpooledUpload {
  fields: Readonly<Record<string, string>>;
  file: { filename: string; contentType: string; bytes: number; blob: Blob };
  discard(): Promise<void>;
}

/** The form fields of an audio call are short (a model, a language, a prompt of a few hundred words). */
const FIELD_BYTES = 64 * 1024;
const FIELDS = 32;

const refusal = (message: string): RelayError =>
  new RelayError(ErrorCode.ValidationFailed, `Invalid request: ${message}`);

function tooLarge(limit: number): RelayError {
  return new RelayError(
    ErrorCode.PayloadTooLarge,
    `The audio file is larger than ${Math.floor(limit / (1024 * 1024))} MB (${limit} bytes)`,
  );
}

/**
 * Reads a multipart/form-data audio upload without holding the file in memory: the `file` part
 * streams into a file in a private directory made for this call (mode 0700), the other parts are
 * kept as fields. The model field may come before or after the file (the SDKs differ), so the
 * channel is chosen only once the upload is complete; the spooled file can then be sent again when
 * a channel fails over. The caller must `discard()` it when the call ends.
 */
export async function spoolUpload(
  body: Readable,
  headers: IncomingHttpHeaders,
  limits: UploadLimits,
): Promise<SpooledUpload> {
  const contentType = headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType) || !/boundary=/i.test(contentType)) {
    body.resume();
    throw refusal('the body must be multipart/form-data with a file part');
  }
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.fileBytes + FIELDS * FIELD_BYTES) {
    body.resume();
    throw tooLarge(limits.fileBytes);
  }
  const directory = await mkdtemp(join(limits.directory, 'tollgate-upload-'));
  const discard = () => rm(directory, { recursive: true, force: true });
  try {
    const parsed = await parseInto(body, headers, limits, join(directory, 'file'));
    const blob = await openAsBlob(join(directory, 'file'), { type: parsed.file.contentType });
    return { fields: parsed.fields, file: { ...parsed.file, blob }, discard };
  } catch (error) {
    body.resume();
    await discard();
    throw error;
  }
}

interface Parsed {
  fields: Record<string, string>;
  file: { filename: string; contentType: string; bytes: number };
}

function parseInto(
  body: Readable,
  headers: IncomingHttpHeaders,
  limits: UploadLimits,
  path: string,
): Promise<Parsed> {
  return new Promise((resolve, reject) => {
    let failed = false;
    let fileStream: Readable | undefined;
    const fail = (error: unknown): void => {
      if (failed) return;
      failed = true;
      body.unpipe(parser);
      // Ends the spooling pipeline, which closes the file it was writing.
      fileStream?.destroy();
      reject(error);
    };
    const parser = new Busboy({
      headers: headers as { 'content-type': string },
      limits: { fileSize: limits.fileBytes, fieldSize: FIELD_BYTES, fields: FIELDS, files: 1 },
    });
    const fields: Record<string, string> = {};
    let file: Parsed['file'] | undefined;
    let written: Promise<void> | undefined;
    parser.on('field', (name: string, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
      if (valueTruncated) fail(refusal(`the field ${name} is longer than ${FIELD_BYTES} bytes`));
      else fields[name] = value;
    });
    parser.on('file', (field, stream, filename, _encoding, mimeType) => {
      if (field !== 'file' || file !== undefined) {
        stream.resume();
        return;
      }
      const current = { filename: filename || 'audio', contentType: mimeType, bytes: 0 };
      file = current;
      fileStream = stream;
      stream.on('data', (chunk: Buffer) => (current.bytes += chunk.length));
      stream.on('limit', () => fail(tooLarge(limits.fileBytes)));
      written = pipeline(stream, createWriteStream(path, { mode: 0o600 }));
      written.catch(fail);
    });
    parser.on('filesLimit', () => undefined);
    parser.on('fieldsLimit', () => fail(refusal(`the form has more than ${FIELDS} fields`)));
    parser.on('error', () => fail(refusal('the multipart body could not be read')));
    body.on('error', fail);
    body.on('aborted', () => fail(new Error('the client left during the upload')));
    parser.on('finish', () => {
      if (failed) return;
      if (file === undefined || written === undefined) {
        fail(refusal('file: an audio file is required'));
        return;
      }
      const done = file;
      written.then(() => {
        if (!failed) resolve({ fields, file: done });
      }, fail);
    });
    body.pipe(parser);
  });
}
