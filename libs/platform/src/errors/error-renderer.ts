import { fail, type ErrorCode } from '@tollgate/contracts';
import type { ErrorDetails } from './app.exception';

/** An error as the filter understood it, before it is put in a protocol's shape. */
export interface ErrorReport {
  readonly code: ErrorCode;
  readonly status: number;
  /** Safe to show to the caller. */
  readonly message: string;
  readonly details?: ErrorDetails;
  /** Set for unexpected errors: the id under which the stack was logged. */
  readonly errorId?: string;
}

export interface RenderedError {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Puts an error in the shape a caller of some routes expects (the `/api` envelope, OpenAI's, Anthropic's…). */
export interface ErrorRenderer {
  render(error: ErrorReport): RenderedError;
}

/** Routes whose path is `prefix` or below it get `renderer`'s shape. */
export interface ErrorRendererRoute {
  readonly prefix: string;
  readonly renderer: ErrorRenderer;
}

export const envelopeErrorRenderer: ErrorRenderer = {
  render: (error) => ({ status: error.status, body: fail(error.message) }),
};

const isUnder = (path: string, prefix: string): boolean => {
  const base = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  return base === '' || path === base || path.startsWith(`${base}/`);
};

/** The renderer of the longest prefix the path falls under, else `fallback`. */
export const selectErrorRenderer = (
  routes: readonly ErrorRendererRoute[],
  url: string,
  fallback: ErrorRenderer = envelopeErrorRenderer,
): ErrorRenderer => {
  const path = url.split('?', 1)[0] ?? url;
  let best: ErrorRendererRoute | undefined;
  for (const route of routes) {
    if (isUnder(path, route.prefix) && (!best || route.prefix.length > best.prefix.length)) best = route;
  }
  return best?.renderer ?? fallback;
};
