import { renderProtocolError, type ApiProtocol } from '@tollgate/contracts';
import type { ErrorRenderer, ErrorRendererRoute } from './error-renderer';

const rendererFor = (protocol: ApiProtocol): ErrorRenderer => ({
  render: (error) => ({
    status: error.status,
    body: renderProtocolError(protocol, error.status, error.code, error.message),
  }),
});

/**
 * The model APIs answer errors in each dialect's own shape, so official SDKs parse them: relay for its
 * routes, the gateway for what its router refuses before any route (a path that does not decode).
 */
export const MODEL_API_ERROR_RENDERERS: readonly ErrorRendererRoute[] = [
  { prefix: '/v1', renderer: rendererFor('openai') },
  { prefix: '/v1/messages', renderer: rendererFor('anthropic') },
  { prefix: '/v1beta', renderer: rendererFor('gemini') },
];
