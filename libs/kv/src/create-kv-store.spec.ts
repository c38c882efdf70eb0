import { createKvStore } from './create-kv-store';
import { MemoryKvStore } from './memory/memory-kv-store';

describe('createKvStore', () => {
  it('builds the in-memory store for the embedded mode', async () => {
    const store = createKvStore({ kind: 'memory' });
    expect(store).toBeInstanceOf(MemoryKvStore);
    await store.close();
  });
});
