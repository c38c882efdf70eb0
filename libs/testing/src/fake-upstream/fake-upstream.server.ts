import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FailureSchedule } from './failure-schedule';
import {
  applyBehaviourPatch,
  behaviourOf,
  resolveFakeUpstreamOptions,
  type FakeUpstreamBehaviour,
  type FakeUpstreamBehaviourPatch,
  type FakeUpstreamOptions,
  type ResolvedFakeUpstreamOptions,
} from './fake-upstream.options';
import { jsonReply, type Reply, type UpstreamRequest } from './fake-upstream.reply';
import { matchRoute, type MatchedRoute } from './fake-upstream.routes';
import { StatsRecorder, type FakeUpstreamStats } from './fake-upstream.stats';
import { FAKE_PNG } from './generation/media-assets';
import { PromptCache } from './generation/prompt-cache';
import { PromptTokenCounter } from './generation/prompt-tokens';
import { readJsonBody } from './http/json-body';
import { readMultipartBody } from './http/multipart-body';
import { deliverReply, type DeliveryTiming } from './http/reply-writer';
import { FAKE_IMAGE_PATH } from './providers/openai/images';
import { openAiError } from './providers/openai/openai.family';

export interface FakeUpstream {
  /** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  readonly url: string;
  readonly port: number;
  stats(): FakeUpstreamStats;
  /** Zeroes the counters and restarts the failure schedule. */
  resetStats(): void;
  options(): ResolvedFakeUpstreamOptions;
  /** Changes behaviour for the requests that arrive from now on; a change of fail settings restarts the failure schedule. */
  setOptions(patch: FakeUpstreamBehaviourPatch): void;
  /** Stops accepting, lets open responses finish for up to `closeGraceMs`, then cuts what is left. */
  close(): Promise<void>;
}

const BODY_LIMIT_BYTES = 32 * 1024 * 1024;
/** Longer than the idle timeout of common client pools, so that the client, not the server, closes idle keep-alive sockets. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
const CLOSE_SWEEP_MS = 20;
/**
 * The accept queue: a provider's front end takes a burst of thousands of connections a second, and
 * Node's default (511) dropped SYNs when the benchmark opened 10,000 streams over 10 s (each drop is
 * a 1–3 s retransmit on the client). The kernel caps it at net.core.somaxconn.
 */
export const FAKE_UPSTREAM_LISTEN_BACKLOG = 4096;
const EMPTY_QUERY = new URLSearchParams();

/** Loopback-only helpers for tests and benchmarks that run the fake in another process. */
const CONTROL_PREFIX = '/__fake/';

function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

class FakeUpstreamServer {
  private behaviour: FakeUpstreamBehaviour;
  private readonly stats = new StatsRecorder();
  private readonly failures = new FailureSchedule();
  private readonly promptTokens = new PromptTokenCounter();
  private readonly promptCache = new PromptCache();
  private readonly server = createServer({ noDelay: true }, (request, response) =>
    this.onRequest(request, response),
  );
  private sequence = 0;
  private closing: Promise<void> | undefined;
  private baseUrl = '';

  constructor(private readonly resolved: ResolvedFakeUpstreamOptions) {
    this.behaviour = behaviourOf(resolved);
    this.server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    this.server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  }

  async listen(): Promise<FakeUpstream> {
    // The tokenizer builds its tables on first use (about a second); pay that before the first request, not during it.
    this.promptTokens.count(['warm up']);
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      const { port, host } = this.resolved;
      this.server.listen({ port, host, backlog: FAKE_UPSTREAM_LISTEN_BACKLOG }, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `http://${displayHost(this.resolved.host)}:${port}`;
    return {
      url: this.baseUrl,
      port,
      stats: () => this.stats.snapshot(),
      resetStats: () => this.resetStats(),
      options: () => ({ ...this.resolved, ...this.behaviour }),
      setOptions: (patch) => this.setOptions(patch),
      close: () => this.close(),
    };
  }

  private resetStats(): void {
    this.stats.reset();
    this.failures.reset();
  }

  private setOptions(patch: FakeUpstreamBehaviourPatch): void {
    this.behaviour = applyBehaviourPatch(this.behaviour, patch);
    if (patch.failRate !== undefined || patch.failStatus !== undefined) this.failures.reset();
  }

  private onRequest(request: IncomingMessage, response: ServerResponse): void {
    const url = request.url ?? '/';
    const queryStart = url.indexOf('?');
    const pathname = queryStart === -1 ? url : url.slice(0, queryStart);
    const method = request.method ?? 'GET';
    if (pathname.startsWith(CONTROL_PREFIX) || pathname === '/health' || pathname === FAKE_IMAGE_PATH) {
      this.onInternalRequest(method, pathname, request, response);
      return;
    }
    const match = matchRoute(method, pathname, request.headers);
    if (match === undefined) {
      this.stats.request('not_found');
      this.deliver(response, openAiError(404, `Invalid URL (${method} ${pathname})`));
      return;
    }
    this.stats.request(match.route.id);
    const query = queryStart === -1 ? EMPTY_QUERY : new URLSearchParams(url.slice(queryStart + 1));
    const behaviour = this.behaviour;
    const refusal = match.route.family.authenticate(request.headers, query, behaviour.keys);
    if (refusal !== null) {
      this.stats.increment('unauthorized');
      this.deliver(response, refusal);
      return;
    }
    if (this.failures.shouldFail(behaviour.failRate)) {
      this.stats.increment('injectedFailures');
      this.deliver(response, this.injectedFailure(match, behaviour));
      return;
    }
    if (match.route.multipart === true) {
      void readMultipartBody(request, BODY_LIMIT_BYTES).then((body) => {
        if (body.ok)
          this.deliver(
            response,
            this.answer(match, this.upstreamRequest(request, match, query, body.value, behaviour)),
            behaviour,
          );
        else if (body.reason === 'too_large') this.deliver(response, match.route.family.error(413));
        else if (body.reason === 'invalid_multipart')
          this.deliver(response, match.route.family.error(400, 'Could not parse multipart form'));
      });
      return;
    }
    if (!match.route.hasBody) {
      this.deliver(
        response,
        this.answer(match, this.upstreamRequest(request, match, query, undefined, behaviour)),
        behaviour,
      );
      return;
    }
    void readJsonBody(request, BODY_LIMIT_BYTES).then((body) => {
      if (body.ok) {
        this.deliver(
          response,
          this.answer(match, this.upstreamRequest(request, match, query, body.value, behaviour)),
          behaviour,
        );
      } else if (body.reason === 'too_large') {
        this.deliver(response, match.route.family.error(413));
      } else if (body.reason === 'invalid_json') {
        this.deliver(
          response,
          match.route.family.error(400, 'We could not parse the JSON body of your request.'),
        );
      }
    });
  }

  private upstreamRequest(
    request: IncomingMessage,
    match: MatchedRoute,
    query: URLSearchParams,
    body: unknown,
    behaviour: FakeUpstreamBehaviour,
  ): UpstreamRequest {
    this.sequence += 1;
    return {
      body,
      params: match.params,
      query,
      headers: request.headers,
      settings: behaviour,
      promptTokens: this.promptTokens,
      promptCache: this.promptCache,
      sequence: this.sequence,
      baseUrl: this.baseUrl,
    };
  }

  /** A bug in a transform must answer a 500, not take the whole process down with an unhandled rejection. */
  private answer(match: MatchedRoute, request: UpstreamRequest): Reply {
    try {
      return match.route.handle(request);
    } catch (error) {
      const reason = error instanceof Error ? error.name : 'unknown error';
      return match.route.family.error(500, `fake upstream failed to answer (${reason})`);
    }
  }

  private injectedFailure(match: MatchedRoute, behaviour: FakeUpstreamBehaviour): Reply {
    const reply = match.route.family.error(behaviour.failStatus);
    if (behaviour.failStatus !== 429 || reply.kind !== 'json') return reply;
    return {
      ...reply,
      headers: [...(reply.headers ?? []), 'retry-after', String(behaviour.retryAfterSeconds)],
    };
  }

  private deliver(response: ServerResponse, reply: Reply, timing: DeliveryTiming = this.behaviour): void {
    deliverReply(response, reply, timing, this.stats);
  }

  private onInternalRequest(
    method: string,
    pathname: string,
    request: IncomingMessage,
    response: ServerResponse,
  ): void {
    const timing: DeliveryTiming = { latencyMs: 0, chunkMs: 0, dropAfter: null, breakAfterEnd: false };
    const send = (reply: Reply): void => deliverReply(response, reply, timing, this.stats);
    if (method === 'GET' && pathname === '/health') return send(jsonReply(200, { status: 'ok' }));
    if (method === 'GET' && pathname === FAKE_IMAGE_PATH) {
      return send({ kind: 'bytes', status: 200, contentType: 'image/png', body: FAKE_PNG });
    }
    if (method === 'GET' && pathname === `${CONTROL_PREFIX}stats`)
      return send(jsonReply(200, this.stats.snapshot()));
    if (method === 'POST' && pathname === `${CONTROL_PREFIX}reset`) {
      this.resetStats();
      return send(jsonReply(200, this.stats.snapshot()));
    }
    if (method === 'POST' && pathname === `${CONTROL_PREFIX}close-idle`) {
      // A benchmark measuring targets one after another on one fake: the keep-alive connections an
      // earlier target's pool left idle would otherwise count against this process's descriptors
      // while the next target is measured.
      this.server.getConnections((error, before) => {
        this.server.closeIdleConnections();
        send(jsonReply(200, { connectionsBefore: error === null ? before : null }));
      });
      return;
    }
    if (method === 'POST' && pathname === `${CONTROL_PREFIX}options`) {
      void readJsonBody(request, BODY_LIMIT_BYTES).then((body) => {
        if (!body.ok) return send(jsonReply(400, { error: `body: ${body.reason}` }));
        try {
          this.setOptions((body.value ?? {}) as FakeUpstreamBehaviourPatch);
          send(jsonReply(200, this.behaviour));
        } catch (error) {
          send(jsonReply(400, { error: error instanceof Error ? error.message : String(error) }));
        }
      });
      return;
    }
    send(jsonReply(404, { error: `no such fake-upstream route: ${method} ${pathname}` }));
  }

  private close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve, reject) => {
      const graceTimer = setTimeout(() => this.server.closeAllConnections(), this.resolved.closeGraceMs);
      // A keep-alive connection whose answer ends after close() stays open until its idle timeout
      // unless closed again; polling avoids a listener on every response of the hot path.
      const idleSweep = setInterval(() => this.server.closeIdleConnections(), CLOSE_SWEEP_MS);
      this.server.close((error) => {
        clearTimeout(graceTimer);
        clearInterval(idleSweep);
        if (error === undefined) resolve();
        else reject(error);
      });
      this.server.closeIdleConnections();
    });
    return this.closing;
  }
}

export async function startFakeUpstream(options: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  return new FakeUpstreamServer(resolveFakeUpstreamOptions(options)).listen();
}
