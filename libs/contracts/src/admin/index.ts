export * from './incidents';
export * from './settings';
