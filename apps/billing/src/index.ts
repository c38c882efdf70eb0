export { startBilling } from './start-billing';
export { billingConfigSchema, type BillingConfig } from './config';
