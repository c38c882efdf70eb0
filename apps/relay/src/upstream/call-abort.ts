/**
 * What ends a call early: the client leaving, or a deadline. The upstream call, the channel queue's
 * wait and the relays listen to it. It is what an AbortSignal says, without one: an AbortController
 * per call and undici's EventTarget listener on it were about 1.7 % of relay's CPU in the profile,
 * where this is a flag and at most a couple of plain callbacks.
 */
export interface CallAbort {
  readonly aborted: boolean;
  /** Calls `listener` once when the call is aborted (never if it already was); returns its removal. */
  onAbort(listener: () => void): () => void;
}

/** What a wait or an upstream call ends with once its call was aborted. */
export class CallAbortedError extends Error {
  constructor() {
    super('the call was aborted');
    this.name = 'CallAbortedError';
  }
}

/** A CallAbort aborted by hand, once. */
export class CallAbortSource implements CallAbort {
  private abortedYet = false;
  private listeners: (() => void)[] = [];

  get aborted(): boolean {
    return this.abortedYet;
  }

  onAbort(listener: () => void): () => void {
    if (this.abortedYet) return noop;
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at !== -1) this.listeners.splice(at, 1);
    };
  }

  abort(): void {
    if (this.abortedYet) return;
    this.abortedYet = true;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }
}

/** Aborted `ms` milliseconds from now; `cancel` stops the timer once the call is over. */
export function deadline(ms: number): CallAbort & { cancel(): void } {
  const source = new CallAbortSource();
  const timer = setTimeout(() => source.abort(), ms);
  return {
    get aborted() {
      return source.aborted;
    },
    onAbort: (listener) => source.onAbort(listener),
    cancel: () => clearTimeout(timer),
  };
}

function noop(): void {}
