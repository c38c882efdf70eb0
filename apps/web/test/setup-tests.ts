import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// Typing into forms with user-event on a busy 2-core machine can outlast Jest's default 5 s.
jest.setTimeout(15_000);
// Routes are lazy chunks: the first find* of a screen waits for its module to be transformed and
// loaded, which on a busy CI machine takes longer than testing-library's default 1 s.
configure({ asyncUtilTimeout: 8_000 });

// jsdom lacks the observers Radix's positioning uses; they need only exist.
class NoopObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver ??= NoopObserver as unknown as typeof ResizeObserver;

// react-router reads TextEncoder at import; jsdom does not provide it, Node does.
import { TextDecoder, TextEncoder } from 'node:util';
Object.assign(globalThis, { TextEncoder, TextDecoder });

// The data router builds a Request per navigation; jsdom has none. Ours have no loaders, so a
// Request carrying url, method, headers and signal is all it reads.
if (typeof globalThis.Request === 'undefined') {
  class TestRequest {
    readonly url: string;
    readonly method: string;
    readonly headers: Headers;
    readonly signal: AbortSignal;
    constructor(input: string | URL, init: RequestInit = {}) {
      this.url = String(input);
      this.method = (init.method ?? 'GET').toUpperCase();
      this.headers = new Headers(init.headers);
      this.signal = init.signal ?? new AbortController().signal;
    }
  }
  globalThis.Request = TestRequest as unknown as typeof Request;
}
