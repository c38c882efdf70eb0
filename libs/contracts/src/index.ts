export * from './http/envelope';
export * from './http/error-codes';
export * from './events/topics';
export * from './events/money';
export * from './events/schemas';
export * from './routes/route-table';
export * from './system/status';
export * from './users/roles';
