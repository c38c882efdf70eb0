export * from './port/kv-store.port';
export { MemoryKvStore, type KvSnapshotEntry, type MemoryKvStoreOptions } from './memory/memory-kv-store';
export { RedisKvStore, type RedisKvStoreOptions } from './redis/redis-kv-store';
export { createKvStore, type KvStoreConfig } from './create-kv-store';
export { BridgedKvStore } from './bridge/bridged-kv-store';
export { serveKvStore, type KvStoreHost } from './bridge/kv-store-host';
