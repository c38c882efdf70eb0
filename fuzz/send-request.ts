import { request as httpRequest } from 'node:http';
import type { FuzzRequest } from './fuzz-cases';

export interface FuzzResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

/** The answer did not come, whole, within the client's time limit: the fuzzer counts it as a hang. */
export class HangError extends Error {}

/**
 * Sends exactly what the case says (repeated headers, bytes that are not UTF-8) and reads the whole
 * answer, streams included, within `timeoutMs`.
 */
export function sendRequest(baseUrl: string, fuzz: FuzzRequest, timeoutMs: number): Promise<FuzzResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(baseUrl);
    // A raw header list gets no Host from Node: without one HTTP/1.1 refuses the request.
    const hasHost = fuzz.headers.some(([name]) => name.toLowerCase() === 'host');
    const headers = [...(hasHost ? [] : ['host', url.host]), ...fuzz.headers.flat()];
    if (fuzz.body !== undefined) headers.push('content-length', String(fuzz.body.length));
    const request = httpRequest({
      host: url.hostname,
      port: url.port,
      method: fuzz.method,
      path: fuzz.target,
      headers,
      agent: false,
    });
    const timer = setTimeout(() => {
      request.destroy();
      reject(new HangError(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      response.on('end', () => {
        clearTimeout(timer);
        resolve({
          status: response.statusCode ?? 0,
          contentType: String(response.headers['content-type'] ?? ''),
          body: Buffer.concat(chunks),
        });
      });
    });
    request.end(fuzz.body);
  });
}
