import { renderProtocolError, type ApiProtocol } from '@tollgate/contracts';
import type { ErrorRenderer, ErrorRendererRoute } from '@tollgate/platform';

const rendererFor = (protocol: ApiProtocol): ErrorRenderer => ({
  render: (error) => ({
    status: error.status,
    body: renderProtocolError(protocol, error.status, error.code, error.message),
  }),
});

/** Relay answers each API dialect's errors in that dialect's own shape, so official SDKs parse them. */
export const RELAY_ERROR_RENDERERS: readonly ErrorRendererRoute[] = [
  { prefix: '/v1', renderer: rendererFor('openai') },
  { prefix: '/v1/messages', renderer: rendererFor('anthropic') },
  { prefix: '/v1beta', renderer: rendererFor('gemini') },
];
