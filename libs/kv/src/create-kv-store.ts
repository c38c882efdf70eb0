import type { KvStore } from './port/kv-store.port';
import { MemoryKvStore } from './memory/memory-kv-store';
import { RedisKvStore } from './redis/redis-kv-store';

export type KvStoreConfig =
  | { kind: 'redis'; url: string; keyPrefix?: string; onConnectionError?: (error: Error) => void }
  | { kind: 'memory' };

export function createKvStore(config: KvStoreConfig): KvStore {
  switch (config.kind) {
    case 'redis':
      return new RedisKvStore(config.url, {
        keyPrefix: config.keyPrefix,
        onConnectionError: config.onConnectionError,
      });
    case 'memory':
      return new MemoryKvStore();
  }
}
