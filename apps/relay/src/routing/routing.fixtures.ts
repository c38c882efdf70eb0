import { CHANNEL_TYPES, type CatalogChannel } from '@tollgate/contracts';

/** Test builder: an enabled, unlimited OpenAI channel of group `default` serving gpt-4o. */
export function aChannel(overrides: Partial<CatalogChannel> & { id: number }): CatalogChannel {
  return {
    v: 1,
    type: CHANNEL_TYPES.openai,
    name: `channel ${overrides.id}`,
    key_encrypted: 'encrypted',
    base_url: '',
    models: ['gpt-4o'],
    model_mapping: {},
    groups: ['default'],
    priority: 0,
    weight: 1,
    tag: '',
    status: 1,
    auto_ban: true,
    test_model: '',
    max_concurrency: 0,
    updated_at: 1_700_000_000,
    ...overrides,
  };
}

/** Test table: a Map of channels keyed by id, announcing every change the way relay's read model does. */
export class FakeChannelTable {
  private readonly rows = new Map<string, CatalogChannel>();
  private readonly listeners = new Set<(key: string, value: CatalogChannel | undefined) => void>();
  reads = 0;

  constructor(channels: CatalogChannel[] = []) {
    for (const channel of channels) this.rows.set(String(channel.id), channel);
  }

  entries(): IterableIterator<[string, CatalogChannel]> {
    this.reads++;
    return this.rows.entries();
  }

  onChange(listener: (key: string, value: CatalogChannel | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  put(channel: CatalogChannel): void {
    this.rows.set(String(channel.id), channel);
    for (const listener of this.listeners) listener(String(channel.id), channel);
  }

  remove(id: number): void {
    this.rows.delete(String(id));
    for (const listener of this.listeners) listener(String(id), undefined);
  }
}

/** A seeded generator (mulberry32) so weighted-random tests are repeatable. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
