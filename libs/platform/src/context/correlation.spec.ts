import { currentCorrelationHeaders, runWithCorrelation } from './correlation';
import { currentRequestContext, runWithRequestContext } from './request-context';

describe('correlation', () => {
  it('gives the current ids as headers for outgoing events, and none outside a context', async () => {
    expect(currentCorrelationHeaders()).toEqual({});
    await runWithRequestContext({ requestId: 'r-1', correlationId: 'c-1' }, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      expect(currentCorrelationHeaders()).toEqual({ 'x-request-id': 'r-1', 'x-correlation-id': 'c-1' });
    });
  });

  it("restores the producer's context in a consumer, from Kafka buffers or strings", async () => {
    const headers = { 'x-request-id': Buffer.from('r-2'), 'x-correlation-id': ['c-2'] };
    const seen = await runWithCorrelation(headers, async () => {
      await Promise.resolve();
      return currentRequestContext();
    });
    expect(seen).toEqual({ requestId: 'r-2', correlationId: 'c-2' });
  });

  it('starts a fresh flow when headers are missing or not sane', () => {
    const fresh = runWithCorrelation(undefined, () => currentRequestContext());
    expect(fresh?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(fresh?.correlationId).toBe(fresh?.requestId);

    const odd = runWithCorrelation({ 'x-request-id': 'bad value\nwith newline' }, () =>
      currentRequestContext(),
    );
    expect(odd?.requestId).not.toContain('bad value');
  });
});
