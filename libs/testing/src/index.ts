export * from './fake-upstream';
export * from './service-harness';
