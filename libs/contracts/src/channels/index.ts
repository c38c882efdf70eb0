export * from './channel-types';
export * from './channel-requests';
export * from './channel-views';
