import Fastify, { type FastifyInstance } from 'fastify';
import { currentRequestContext } from './request-context';
import { installRequestContextHooks, requestContextOf } from './request-context.hook';

/** A bare Fastify with the hooks, whose one route answers what it can read of its request's context. */
async function appWith(asyncLocal: boolean): Promise<FastifyInstance> {
  const app = Fastify();
  installRequestContextHooks(app, { asyncLocal });
  app.post('/context', async (request) => ({
    ofRequest: requestContextOf(request) ?? null,
    asyncLocal: currentRequestContext() ?? null,
  }));
  await app.ready();
  return app;
}

const ids = { 'x-request-id': 'req-7', 'x-correlation-id': 'flow-3' };

describe('installRequestContextHooks', () => {
  it('opens the context in async-local storage by default, after the body was read as well', async () => {
    const app = await appWith(true);
    const res = await app.inject({ method: 'POST', url: '/context', headers: ids, payload: { a: 1 } });
    const context = { requestId: expect.any(String), correlationId: 'flow-3' };
    expect(res.json()).toEqual({ ofRequest: context, asyncLocal: context });
    await app.close();
  });

  it('without async-local storage, gives each request its context to carry on explicitly', async () => {
    const app = await appWith(false);
    const res = await app.inject({ method: 'POST', url: '/context', headers: ids, payload: { a: 1 } });
    expect(res.headers['x-request-id']).toBe(res.json().ofRequest.requestId);
    expect(res.json()).toEqual({
      ofRequest: { requestId: res.headers['x-request-id'], correlationId: 'flow-3' },
      asyncLocal: null,
    });
    const plain = await app.inject({ method: 'POST', url: '/context', payload: {} });
    const { requestId, correlationId } = plain.json().ofRequest;
    expect(correlationId).toBe(requestId);
    await app.close();
  });
});
