import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { ErrorCode } from '@tollgate/contracts';
import { sendGatewayError } from './gateway-errors';

interface Written {
  status?: number;
  headers?: OutgoingHttpHeaders;
  body?: string;
  destroyed: boolean;
}

function recordingResponse(headersSent = false): { res: ServerResponse; written: Written } {
  const written: Written = { destroyed: false };
  const res = {
    headersSent,
    writeHead(status: number, headers: OutgoingHttpHeaders) {
      written.status = status;
      written.headers = headers;
      return this;
    },
    end(body: string) {
      written.body = body;
      return this;
    },
    destroy() {
      written.destroyed = true;
      return this;
    },
  };
  return { res: res as unknown as ServerResponse, written };
}

function send(
  path: string,
  status: number,
  code: ErrorCode,
  message: string,
  headers?: Record<string, string>,
) {
  const { res, written } = recordingResponse();
  sendGatewayError(res, path, status, code, message, headers);
  return { ...written, json: JSON.parse(written.body!) as unknown };
}

describe('sendGatewayError', () => {
  it('answers /api in the envelope', () => {
    const answer = send(
      '/api/user/self?x=1',
      502,
      ErrorCode.UpstreamServiceDown,
      'The auth service is unavailable',
    );

    expect(answer.status).toBe(502);
    expect(answer.json).toEqual({ success: false, message: 'The auth service is unavailable' });
    expect(answer.headers!['content-type']).toBe('application/json; charset=utf-8');
  });

  it.each(['/v1/chat/completions', '/v1/models?limit=5', '/v1', '/v1?x=1'])(
    'answers %s in the OpenAI shape',
    (path) => {
      expect(send(path, 429, ErrorCode.RateLimited, 'slow down').json).toEqual({
        error: { message: 'slow down', type: 'rate_limit_error', param: null, code: 'rate_limit_exceeded' },
      });
    },
  );

  it.each(['/v1/messages', '/v1/messages?beta=true', '/v1/messages/count_tokens'])(
    'answers %s in the Anthropic shape',
    (path) => {
      expect(send(path, 413, ErrorCode.PayloadTooLarge, 'too big').json).toEqual({
        type: 'error',
        error: { type: 'request_too_large', message: 'too big' },
      });
    },
  );

  it('answers /v1beta in the Gemini shape', () => {
    const answer = send(
      '/v1beta/models/gemini-2.5-flash:generateContent',
      502,
      ErrorCode.UpstreamServiceDown,
      'down',
    );

    expect(answer.json).toEqual({ error: { code: 502, message: 'down', status: 'UNAVAILABLE' } });
  });

  it('sets a byte-exact content length and the extra headers', () => {
    const answer = send('/api/log/self', 429, ErrorCode.RateLimited, 'Слишком много запросов', {
      'retry-after': '12',
    });

    expect(answer.headers!['content-length']).toBe(Buffer.byteLength(answer.body!));
    expect(answer.headers!['retry-after']).toBe('12');
  });

  it('cuts the connection instead when the response has already started', () => {
    const { res, written } = recordingResponse(true);

    sendGatewayError(res, '/v1/chat/completions', 502, ErrorCode.UpstreamServiceDown, 'down');

    expect(written).toEqual({ destroyed: true });
  });
});
