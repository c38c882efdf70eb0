import type { MessagePort } from 'node:worker_threads';

/**
 * The messages of one thread's turn of the event loop, sent as one: a thread hop costs a wake-up
 * of the other thread and a structured clone, so forty publishes or deliveries in one turn pay
 * for one hop, not forty.
 */
/** Sends `Out` messages, receives `In` ones. */
export class PortMessages<Out, In> {
  private queued: Out[] = [];
  private closed = false;

  constructor(
    private readonly port: MessagePort,
    onMessage: (message: In) => void,
  ) {
    port.on('message', (batch: In[]) => {
      for (const message of batch) onMessage(message);
    });
  }

  send(message: Out): void {
    if (this.closed) return;
    this.queued.push(message);
    if (this.queued.length === 1) queueMicrotask(this.flush);
  }

  /** Sends what is queued, then closes the port: the other side sees 'close'. */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.port.close();
  }

  private readonly flush = (): void => {
    if (this.queued.length === 0 || this.closed) return;
    const batch = this.queued;
    this.queued = [];
    this.port.postMessage(batch);
  };
}

/** An error as it crosses threads: its class name (for the built-in ones) and message. */
export interface WireError {
  name: string;
  message: string;
}

export function toWireError(error: unknown): WireError {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: 'Error', message: String(error) };
}

const BUILT_IN_ERRORS: Record<string, new (message: string) => Error> = {
  TypeError,
  RangeError,
  SyntaxError,
};

export function fromWireError({ name, message }: WireError): Error {
  const error = new (BUILT_IN_ERRORS[name] ?? Error)(message);
  if (!(name in BUILT_IN_ERRORS)) error.name = name;
  return error;
}
