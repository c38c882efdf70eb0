export * from './charge';
export * from './decimal';
export * from './pricing';
export * from './money-input';
export * from './exchange-rate';
export * from './promo';
export * from './payments';
