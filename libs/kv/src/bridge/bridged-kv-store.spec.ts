import { MessageChannel } from 'node:worker_threads';
import { describeKvStoreContract } from '../../test/contract/kv-store.contract';
import { MemoryKvStore } from '../memory/memory-kv-store';
import { BridgedKvStore } from './bridged-kv-store';
import { serveKvStore } from './kv-store-host';

/** A bridged store over a channel whose other end serves `store` (both ends in this thread, as in a test they may be). */
function bridged(store = new MemoryKvStore()) {
  const { port1, port2 } = new MessageChannel();
  const host = serveKvStore(store, port2);
  const client = new BridgedKvStore(port1);
  return { store, host, client, port1 };
}

/** For the contract suite, which closes the store it was given: the served store closes with it. */
class BridgedToItsOwnStore extends BridgedKvStore {
  private readonly served = new MemoryKvStore();

  constructor() {
    const { port1, port2 } = new MessageChannel();
    super(port1);
    serveKvStore(this.served, port2);
  }

  override async close(): Promise<void> {
    await super.close();
    await this.served.close();
  }
}

describeKvStoreContract(
  'BridgedKvStore over a MessagePort to a MemoryKvStore',
  () => new BridgedToItsOwnStore(),
);

describe('BridgedKvStore', () => {
  it('sees what the owning thread wrote, and the owner sees its writes', async () => {
    const { store, client } = bridged();
    await store.set('session:1', 'alice');
    await expect(client.get('session:1')).resolves.toBe('alice');
    await client.set('code:1', 'x', 60_000);
    await expect(store.take('code:1')).resolves.toBe('x');
    await client.close();
    await store.close();
  });

  it('sends the requests of one turn of the event loop as one message', async () => {
    const { store, client, port1 } = bridged();
    const posted: unknown[] = [];
    const post = port1.postMessage.bind(port1);
    port1.postMessage = (message: unknown) => {
      posted.push(message);
      post(message);
    };
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client.incr('calls', 60_000, i + 1)),
    );
    expect(Math.max(...results)).toBe(210);
    expect(posted).toHaveLength(1);
    await client.close();
    await store.close();
  });

  it('rejects with the store error, keeping its message and built-in class', async () => {
    const { store, client } = bridged();
    await client.set('text', 'not a number');
    await expect(client.incr('text', 1000)).rejects.toThrow(/ERR value is not an integer/);
    await expect(client.reserve('acct', 'r1', -5, 10, 1000)).rejects.toBeInstanceOf(RangeError);
    await client.close();
    await store.close();
  });

  it('fails pending and later calls once closed, and leaves the served store open', async () => {
    const { store, client } = bridged();
    await client.close();
    await expect(client.get('k')).rejects.toThrow(/closed/);
    await store.set('k', 'still here');
    await expect(store.get('k')).resolves.toBe('still here');
    await store.close();
  });
});
