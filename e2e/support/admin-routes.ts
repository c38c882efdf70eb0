import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import { ROUTE_TABLE, Role } from '@tollgate/contracts';
import { MINIMUM_ROLE } from '@tollgate/platform';

export interface AdminRoute {
  method: string;
  /** A concrete path: route parameters filled with 1. */
  path: string;
  /** Where the route was found: a controller method, or the gateway's route table. */
  source: string;
}

const SERVICES_WITH_API = ['auth', 'billing', 'chat', 'admin', 'relay'];

function controllerFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return controllerFiles(path);
    return entry.name.endsWith('.controller.ts') ? [path] : [];
  });
}

const joinPaths = (...parts: (string | string[] | undefined)[]) =>
  `/${parts
    .map((part) => (Array.isArray(part) ? part[0] : part) ?? '')
    .join('/')
    .split('/')
    .filter(Boolean)
    .join('/')}`;

/**
 * Every /api route a service serves only to administrators, read from the controllers' own metadata
 * (the `@Roles` decorator the services' guard enforces), so a new admin route is walked without
 * anyone adding it here; plus the prefixes the gateway's route table closes to non-admins.
 */
export function adminRoutes(root: string): AdminRoute[] {
  const routes: AdminRoute[] = [];
  for (const service of SERVICES_WITH_API) {
    for (const file of controllerFiles(join(root, 'apps', service, 'src'))) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const exports = require(file) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exports)) {
        if (typeof value !== 'function' || Reflect.getMetadata(PATH_METADATA, value) === undefined) continue;
        const controller = value as new (...args: never[]) => object;
        const classRole = Reflect.getMetadata(MINIMUM_ROLE, controller) as Role | undefined;
        const prototype = controller.prototype as Record<string, unknown>;
        for (const key of Object.getOwnPropertyNames(prototype)) {
          const handler = prototype[key];
          if (key === 'constructor' || typeof handler !== 'function') continue;
          const methodPath = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
          if (methodPath === undefined) continue;
          const role = (Reflect.getMetadata(MINIMUM_ROLE, handler) as Role | undefined) ?? classRole;
          if (role === undefined || role < Role.Admin) continue;
          const path = joinPaths(Reflect.getMetadata(PATH_METADATA, controller) as string, methodPath);
          if (!path.startsWith('/api/')) continue;
          const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
          routes.push({
            method: method === 'ALL' ? 'GET' : method,
            path: path.replace(/:[A-Za-z_]+/g, '1'),
            source: `${service}: ${name}.${key}`,
          });
        }
      }
    }
  }
  for (const entry of ROUTE_TABLE) {
    if (entry.minRole === undefined || entry.minRole < Role.Admin) continue;
    for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
      routes.push({ method, path: `${entry.prefix}/`, source: `gateway route table: ${entry.prefix}` });
    }
  }
  return routes;
}
