import { useSystemStatus } from './use-system-status';

/**
 * The OpenAI-compatible base URL clients should use: the server address the status reports, else
 * the address this page was served from (the gateway serves both), with `/v1`.
 */
export function useApiBaseUrl(): string {
  const status = useSystemStatus();
  const server = status.data?.server_address || window.location.origin;
  return `${server.replace(/\/+$/, '')}/v1`;
}
