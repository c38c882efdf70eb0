export * from './http/envelope';
export * from './http/error-codes';
