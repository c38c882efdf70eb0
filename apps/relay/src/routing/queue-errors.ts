/** A request waited longer than the queue timeout for a slot on a channel at its max_concurrency. */
export class QueueTimeoutError extends Error {
  constructor(
    readonly channelId: number,
    readonly retryAfterSeconds: number,
  ) {
    super('The upstream is at capacity and the request waited too long; try again later');
    this.name = 'QueueTimeoutError';
  }
}

/** A channel's waiting queue is already at its capacity; the request was not queued. */
export class QueueFullError extends Error {
  constructor(
    readonly channelId: number,
    readonly retryAfterSeconds: number,
  ) {
    super('The upstream is at capacity and its queue is full; try again later');
    this.name = 'QueueFullError';
  }
}
