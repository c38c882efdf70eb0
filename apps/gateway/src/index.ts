export { startGateway, type GatewayStartOptions } from './start-gateway';
export { gatewayConfigSchema, type GatewayConfig } from './config';
