import type { ServerResponse } from 'node:http';
import { ErrorCode, fail, protocolOfPath, renderProtocolError } from '@tollgate/contracts';

/** Whether `path` is a model API call (/v1, /v1beta), answered in its protocol's error shape. */
export function isModelApiPath(path: string): boolean {
  const pathname = path.split('?', 1)[0] ?? path;
  return pathname === '/v1' || pathname.startsWith('/v1/') || pathname.startsWith('/v1beta');
}

/** The gateway's own refusals, in the envelope on /api and in the caller's protocol on /v1 and /v1beta. */
export function sendGatewayError(
  res: ServerResponse,
  path: string,
  status: number,
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify(
    isModelApiPath(path) ? renderProtocolError(protocolOfPath(path), status, code, message) : fail(message),
  );
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}
