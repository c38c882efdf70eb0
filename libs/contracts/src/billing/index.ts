export * from './charge';
export * from './decimal';
export * from './pricing';
