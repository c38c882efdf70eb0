export { startAuth } from './start-auth';
export { authConfigSchema, type AuthConfig } from './config';
