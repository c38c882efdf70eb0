import { Role } from '../users/roles';

export const SERVICES = ['gateway', 'auth', 'billing', 'relay', 'chat', 'admin'] as const;
export type ServiceName = (typeof SERVICES)[number];
/** Services behind the gateway. */
export type BackendService = Exclude<ServiceName, 'gateway'>;
export const BACKEND_SERVICES: readonly BackendService[] = ['auth', 'billing', 'relay', 'chat', 'admin'];

/** The relay's /v1 routes that take a file upload (multipart), with a larger body limit than JSON calls. */
export const RELAY_UPLOAD_PATHS: readonly string[] = ['/v1/audio/transcriptions', '/v1/audio/translations'];

export interface RouteEntry {
  /** Path prefix; matches the path itself and anything below it at a segment boundary. */
  prefix: string;
  service: BackendService;
  /** The gateway refuses callers below this role before forwarding (services check again). */
  minRole?: Role;
}

/**
 * Every call of SPEC §7 mapped to the service that owns it. The longest matching prefix wins, so
 * `/api/user/payment` goes to billing while the rest of `/api/user` goes to auth.
 */
export const ROUTE_TABLE: readonly RouteEntry[] = [
  // auth: users, sessions, OAuth, API keys, affiliate codes
  { prefix: '/api/user', service: 'auth' },
  { prefix: '/api/reset_password', service: 'auth' },
  { prefix: '/api/verification', service: 'auth' },
  { prefix: '/api/oauth', service: 'auth' },
  { prefix: '/api/token', service: 'auth' },
  // billing: money, prices, logs, statistics
  { prefix: '/api/user/payment', service: 'billing' },
  { prefix: '/api/user/aff_transfer', service: 'billing' },
  { prefix: '/api/log', service: 'billing' },
  { prefix: '/api/statistics', service: 'billing' },
  { prefix: '/api/pricing', service: 'billing' },
  { prefix: '/api/exchange-rate', service: 'billing' },
  { prefix: '/api/promo', service: 'billing' },
  { prefix: '/api/payment', service: 'billing', minRole: Role.Admin },
  // chat
  { prefix: '/api/chat', service: 'chat' },
  // admin: channels, options, status, notice, versions, incidents
  { prefix: '/api/channel', service: 'admin', minRole: Role.Admin },
  { prefix: '/api/option', service: 'admin', minRole: Role.Root },
  { prefix: '/api/status', service: 'admin' },
  { prefix: '/api/notice', service: 'admin' },
  { prefix: '/api/versions', service: 'admin' },
  { prefix: '/api/incident', service: 'admin' },
  { prefix: '/api/audit', service: 'admin', minRole: Role.Admin },
  // relay: the OpenAI-, Anthropic- and Gemini-compatible API
  { prefix: '/v1', service: 'relay' },
  { prefix: '/v1beta', service: 'relay' },
];

export interface CompiledRouteTable {
  /** The owning entry for a path (query string allowed), or undefined when no prefix matches. */
  match(path: string): RouteEntry | undefined;
}

/** Sorts by prefix length once, so matching is a short scan with no allocation per request. */
export function compileRouteTable(entries: readonly RouteEntry[] = ROUTE_TABLE): CompiledRouteTable {
  const sorted = [...entries].sort((a, b) => b.prefix.length - a.prefix.length);
  return {
    match(path: string): RouteEntry | undefined {
      const end = pathEnd(path);
      for (const entry of sorted) {
        const p = entry.prefix;
        if (end < p.length || !path.startsWith(p)) continue;
        if (end === p.length || path.charCodeAt(p.length) === 47 /* '/' */) return entry;
      }
      return undefined;
    },
  };
}

function pathEnd(path: string): number {
  const q = path.indexOf('?');
  return q === -1 ? path.length : q;
}
