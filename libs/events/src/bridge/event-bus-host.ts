import type { MessagePort } from 'node:worker_threads';
import { readsConsumerLag } from '../port/consumer-lag.port';
import type { CompactedTable, EventBus, EventRecord, Subscription } from '../port/event-bus.port';
import {
  subscribesEncoded,
  type BridgeToOwner,
  type BusRequest,
  type OwnerToBridge,
  type RemoteSubscription,
  type TableSnapshot,
} from './bus-bridge-protocol';
import { fromWireError, PortMessages, toWireError } from './port-messages';

export interface EventBusHost {
  /** Stops what the other thread subscribed to and closes the port; the bus itself stays open. */
  close(): Promise<void>;
}

/** The bridged side is gone or stopping: the batch was not handled, so it is not committed. */
class Undelivered extends Error {}

/**
 * Serves `bus` to a `BridgedEventBus` on the other end of `port` (another thread). The bus stays
 * the one bus of the platform; the other thread's publishes are answered once `bus` has accepted
 * them, and its subscriptions are members of `bus`'s groups whose handler is a round trip: the
 * batch is committed here only after the other thread answers that it was handled (or
 * dead-lettered), so delivery stays at least once across the hop. The retry and dead-letter
 * policy of a subscription runs on the bridged side, where its handler and decode are; here a
 * batch the other side could not finish is simply offered again.
 */
export function serveEventBus(bus: EventBus, port: MessagePort): EventBusHost {
  const subscriptions = new Map<number, Promise<Subscription>>();
  const tables = new Map<number, Promise<CompactedTable<unknown>>>();
  const deliveries = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let nextDelivery = 1;
  let closed = false;
  const messages = new PortMessages<OwnerToBridge, BridgeToOwner>(port, (message) => {
    if ('delivered' in message) answered(message);
    else void handle(message);
  });

  function answered(answer: Extract<BridgeToOwner, { delivered: number }>): void {
    const pending = deliveries.get(answer.delivered);
    if (!pending) return;
    deliveries.delete(answer.delivered);
    if ('error' in answer) pending.reject(fromWireError(answer.error));
    else if (answer.outcome === 'done') pending.resolve();
    else pending.reject(new Undelivered('the bridged subscription stopped before it finished the batch'));
  }

  const send = (message: OwnerToBridge) => messages.send(message);

  async function handle(request: BusRequest): Promise<void> {
    try {
      send({ reply: request.id, value: await perform(request) });
    } catch (error) {
      send({ reply: request.id, error: toWireError(error) });
    }
  }

  async function perform(request: BusRequest): Promise<unknown> {
    switch (request.op) {
      case 'ensureTopics':
        return bus.ensureTopics(request.topics);
      case 'publish':
        return bus.publish(request.events);
      case 'subscribe': {
        const subscribing = subscribe(request.subscription, request.options);
        subscriptions.set(request.subscription, subscribing);
        try {
          await subscribing;
        } catch (error) {
          subscriptions.delete(request.subscription);
          throw error;
        }
        return undefined;
      }
      case 'unsubscribe': {
        const subscription = subscriptions.get(request.subscription);
        subscriptions.delete(request.subscription);
        await (await subscription?.catch(() => undefined))?.stop();
        return undefined;
      }
      case 'table':
        return openTable(request.table, request.topic);
      case 'untable': {
        const table = tables.get(request.table);
        tables.delete(request.table);
        await (await table?.catch(() => undefined))?.stop();
        return undefined;
      }
      case 'consumerLag':
        if (!readsConsumerLag(bus)) throw new Error('this event bus does not report consumer lag');
        return bus.consumerLag(request.groupId, request.topic);
    }
  }

  function subscribe(subscription: number, options: RemoteSubscription): Promise<Subscription> {
    // A bus that can hand its records over as JSON text does: the other side parses them, and this
    // thread (gateway and relay's, in embedded mode) neither parses nor clones an object per record.
    const encoded = subscribesEncoded(bus);
    const member = {
      ...options,
      // Only a batch the other side did not finish comes back as a failure (it stopped, or the
      // thread is gone): offered again for as long as this member runs, never dead-lettered here.
      isTransient: () => true,
      backoff: { initialDelayMs: 50, maxDelayMs: 1_000 },
      handler: (records: EventRecord[]) =>
        new Promise<void>((resolve, reject) => {
          if (closed) return reject(new Undelivered('the bridge is closed'));
          const id = nextDelivery++;
          deliveries.set(id, { resolve, reject });
          send({ deliver: id, subscription, records, ...(encoded && { encoded: true as const }) });
        }),
    };
    return encoded ? bus.subscribeEncoded(member) : bus.subscribe(member);
  }

  async function openTable(id: number, topic: string): Promise<TableSnapshot> {
    const opening = bus.table<unknown>(topic);
    tables.set(id, opening);
    let table: CompactedTable<unknown>;
    try {
      table = await opening;
    } catch (error) {
      tables.delete(id);
      throw error;
    }
    // The rows and the listener are taken in one synchronous step, as the bus's own tables do.
    const snapshot: TableSnapshot = { rows: [...table.entries()], caughtUp: table.isCaughtUp() };
    table.onChange((key, value) => send({ table: id, key, value: value === undefined ? null : value }));
    if (!snapshot.caughtUp) {
      table.caughtUp().then(
        () => send({ table: id, caughtUp: true }),
        (error: unknown) => send({ table: id, failed: toWireError(error) }),
      );
    }
    return snapshot;
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    for (const pending of deliveries.values()) pending.reject(new Undelivered('the bridge is closed'));
    deliveries.clear();
    const stopping = [
      ...[...subscriptions.values()].map(async (s) => (await s.catch(() => undefined))?.stop()),
      ...[...tables.values()].map(async (t) => (await t.catch(() => undefined))?.stop()),
    ];
    subscriptions.clear();
    tables.clear();
    await Promise.all(stopping);
    messages.close();
  }

  // The other thread ended (or closed its end): what it subscribed to must not hold partitions.
  port.once('close', () => void close());
  return { close };
}
