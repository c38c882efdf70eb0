import fc from 'fast-check';
import { casesFor, type FuzzRequest } from './fuzz-cases';
import { API_BODY_LIMIT_BYTES, FuzzPlatform, V1_BODY_LIMIT_BYTES, type RowCounts } from './fuzz-platform';
import { fuzzSettings } from './fuzz-settings';
import { describeBody, errorShapeProblem } from './error-shapes';
import { apiRoutes, v1RoutePathsInSource, v1Routes, type FuzzRoute } from './route-catalogue';
import { sendRequest } from './send-request';

const settings = fuzzSettings();
const routes: FuzzRoute[] = [...apiRoutes(), ...v1Routes()];
// Printed first, so that any failure of this run can be replayed: FUZZ_SEED=<seed> FUZZ_RUNS=<runs>.
process.stdout.write(
  `fuzz: seed ${settings.seed}, ${settings.runsPerRoute} cases per route, ${routes.length} routes\n`,
);

jest.setTimeout(Math.max(120_000, settings.runsPerRoute * 2 * settings.timeoutMs));

/** Calls that change who the seeded identities are (sign-out, deletion, new password, disabled key). */
const changesIdentities = (request: FuzzRequest): boolean =>
  /^\/api\/(user|token|option)/.test(request.target) &&
  (request.method !== 'GET' || request.target.includes('logout'));

describe('every public endpoint under fuzzed input', () => {
  const platform = new FuzzPlatform();

  beforeAll(async () => {
    await platform.start();
  }, 180_000);

  afterAll(async () => {
    await platform.stop();
  });

  it('covers every /v1 path the relay registers', () => {
    const listed = new Set(v1Routes().map((route) => route.path));
    expect(v1RoutePathsInSource().filter((path) => !listed.has(path))).toEqual([]);
  });

  it('finds the /api endpoints of every service behind the gateway', () => {
    const sources = new Set(apiRoutes().map((route) => route.source.split('/')[1]));
    expect([...sources].sort()).toEqual(['admin', 'auth', 'billing', 'chat']);
  });

  describe.each(routes.map((route, index) => [`${route.method} ${route.path}`, route, index] as const))(
    '%s',
    (_name, route, index) => {
      it("answers without 5xx or hang, refuses in its protocol's error shape, and writes no row when it refuses", async () => {
        const limit = route.dialect === 'api' ? API_BODY_LIMIT_BYTES : V1_BODY_LIMIT_BYTES;
        await fc.assert(
          fc.asyncProperty(casesFor(route, platform.model, limit), async (fuzzCase) => {
            const request = fuzzCase(platform.identities);
            const before = await platform.rowCounts();
            const response = await sendRequest(platform.gatewayUrl, request, settings.timeoutMs);
            const context = `${request.label}\n→ ${response.status} ${describeBody(response.body)}`;
            if (response.status >= 500) throw new Error(`5xx: ${context}`);
            const refused = response.status >= 400 || refusedInEnvelope(route, response.body);
            if (!refused) {
              await platform.settled(before);
              if (changesIdentities(request)) await platform.refreshIdentities();
              return;
            }
            const shape = errorShapeProblem(route.dialect, response.status, response.body);
            if (shape !== undefined) throw new Error(`wrong error shape (${shape}): ${context}`);
            const written = grown(before, await platform.rowCounts());
            if (written.length > 0)
              throw new Error(`a refused request wrote rows (${written.join(', ')}): ${context}`);
          }),
          { seed: settings.seed + index, numRuns: settings.runsPerRoute, endOnFailure: true },
        );
      });
    },
  );
});

/** An /api answer of 200 whose envelope says `success: false` refuses all the same. */
function refusedInEnvelope(route: FuzzRoute, body: Buffer): boolean {
  if (route.dialect !== 'api') return false;
  try {
    return (JSON.parse(body.toString('utf8')) as { success?: unknown }).success === false;
  } catch {
    return false;
  }
}

function grown(before: RowCounts, after: RowCounts): string[] {
  return Object.entries(after)
    .filter(([table, rows]) => rows > (before[table] ?? 0))
    .map(([table, rows]) => `${table} ${before[table] ?? 0} → ${rows}`);
}
