export * from './port/kv-store.port';
