export * from './fake-upstream';
export * from './service-harness';
export * from './builders';
export * from './fake-cbr';
export * from './fake-payments';
export * from './fake-oauth';
export * from './operator-env';
export * from './seeding';
