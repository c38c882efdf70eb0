export { startAdmin } from './start-admin';
export { adminConfigSchema, type AdminConfig } from './config';
