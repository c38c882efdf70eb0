import { BACKEND_SERVICES, type BackendService } from '@tollgate/contracts';
import type { Env } from '@tollgate/runtime';

/** AUTH_URL, BILLING_URL, … on loopback: for services that call each other, and for the gateway in front. */
export function serviceUrlEnv(ports: Readonly<Record<BackendService, number>>): Env {
  return Object.fromEntries(
    BACKEND_SERVICES.map((name) => [`${name.toUpperCase()}_URL`, `http://127.0.0.1:${ports[name]}`]),
  );
}
