import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LISTEN_PATH_MAX_BYTES, type Env } from '@tollgate/runtime';

/** `TOLLGATE_UNIX_HOP`: `1` sends the distributed gateway's relay calls over a Unix socket instead of TCP. */
export const UNIX_HOP_ENV = 'TOLLGATE_UNIX_HOP';

/**
 * Whether the distributed launcher's gateway reaches relay over a Unix socket (off unless `1`). On one host
 * a Unix socket skips the kernel's loopback TCP path for the hop every /v1 call takes: a fifth of the hop's
 * own CPU at both ends measured alone, within the noise on the real gateway and relay of a shared machine
 * (bench/ANALYSIS.md, H29 and H57). Off by default: a burst of new connections that overflows relay's
 * accept queue is refused at once on a Unix socket (the gateway answers 502), where TCP retries the
 * handshake (the bench's 5,000 streams: 493 × 502 over the socket, none over TCP).
 */
export function unixHopFromEnv(env: Env): boolean {
  const raw = env[UNIX_HOP_ENV]?.trim();
  if (!raw || raw === '0') return false;
  if (raw === '1') return true;
  throw new Error(`${UNIX_HOP_ENV} must be 0 or 1, got "${raw}"`);
}

export const RELAY_SOCKET_NAME = 'relay.sock';

/**
 * Where relay's socket goes: `<dir>/relay.sock` when given a directory and the path fits a socket address,
 * else in a new private directory under the system's temporary one (created 0700; `temporary` says so, for
 * the caller to remove it when the platform stops).
 */
export function relaySocketPath(dir: string | undefined): { path: string; temporary: boolean } {
  if (dir !== undefined) {
    const path = join(resolve(dir), RELAY_SOCKET_NAME);
    if (Buffer.byteLength(path) <= LISTEN_PATH_MAX_BYTES) return { path, temporary: false };
  }
  return { path: join(mkdtempSync(join(tmpdir(), 'tollgate-')), RELAY_SOCKET_NAME), temporary: true };
}
