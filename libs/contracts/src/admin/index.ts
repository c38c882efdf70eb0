export * from './incidents';
