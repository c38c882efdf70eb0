import type { MessagePort } from 'node:worker_threads';
import type { KvStore } from '../port/kv-store.port';
import { KV_OPERATIONS, type KvReply, type KvRequest } from './bridged-kv-store';

export interface KvStoreHost {
  /** Closes the port; the store itself stays open for this thread. */
  close(): void;
}

/**
 * Serves `store` to a `BridgedKvStore` on the other end of `port`: each request runs on `store`
 * in this thread, in the order it came, and the replies of one turn go back as one message.
 */
export function serveKvStore(store: KvStore, port: MessagePort): KvStoreHost {
  let queued: KvReply[] = [];
  let closed = false;
  const flush = () => {
    if (queued.length === 0 || closed) return;
    const batch = queued;
    queued = [];
    port.postMessage(batch);
  };
  const reply = (message: KvReply) => {
    queued.push(message);
    if (queued.length === 1) queueMicrotask(flush);
  };
  port.on('message', (requests: KvRequest[]) => {
    for (const { id, op, args } of requests) {
      // Called as the store's own method, so a store's `this` and argument checks apply as usual.
      const method = store[op] as (...values: unknown[]) => Promise<unknown>;
      let result: Promise<unknown>;
      try {
        if (!KV_OPERATIONS.has(op)) throw new Error(`unknown key-value operation ${String(op)}`);
        result = method.apply(store, args);
      } catch (error) {
        result = Promise.reject(error);
      }
      result.then(
        (value) => reply({ reply: id, value }),
        (error: unknown) =>
          reply({
            reply: id,
            error:
              error instanceof Error
                ? { name: error.name, message: error.message }
                : { name: 'Error', message: String(error) },
          }),
      );
    }
  });
  const close = () => {
    if (closed) return;
    flush();
    closed = true;
    port.close();
  };
  port.once('close', close);
  return { close };
}
