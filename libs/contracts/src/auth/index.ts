export * from './auth-message-keys';
export * from './auth-requests';
export * from './auth-responses';
export * from './session-lookup';
export * from './tokens';
export * from './account-requests';
export * from './oauth';
