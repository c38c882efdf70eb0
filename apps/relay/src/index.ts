export { startRelay } from './start-relay';
export { relayConfigSchema, type RelayConfig } from './config';
