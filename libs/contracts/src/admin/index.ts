export * from './incidents';
export * from './settings';
export * from './audit';
