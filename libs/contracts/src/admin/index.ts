export * from './incidents';
export * from './settings';
export * from './audit';
export * from './options';
export * from './versions';
