export { startGateway } from './start-gateway';
export { gatewayConfigSchema, type GatewayConfig } from './config';
