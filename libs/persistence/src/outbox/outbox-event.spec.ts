import { runWithRequestContext } from '@tollgate/platform';
import { toOutboxRow, toOutgoingEvent } from './outbox-event';

describe('outbox rows', () => {
  it('stores an event and gives it back unchanged', () => {
    const event = {
      topic: 'billing.balance',
      key: '42',
      value: { quota: 10 },
      headers: { 'event-id': 'e1' },
    };
    expect(toOutgoingEvent(toOutboxRow(event))).toEqual(event);
  });

  it('keeps a tombstone as null and defaults headers to none', () => {
    const row = toOutboxRow({ topic: 'identity.token', key: '7', value: null });
    expect(row).toEqual({ topic: 'identity.token', key: '7', value: null, headers: {} });
    expect(toOutgoingEvent(row).value).toBeNull();
  });

  it('refuses an event without topic or key, or with an undefined value', () => {
    expect(() => toOutboxRow({ topic: '', key: '1', value: 1 })).toThrow(/topic/);
    expect(() => toOutboxRow({ topic: 't', key: '', value: 1 })).toThrow(/key/);
    expect(() => toOutboxRow({ topic: 't', key: '1', value: undefined })).toThrow(/tombstone/);
  });

  it('keeps the ids of the request that wrote the event, under explicit headers', () => {
    const row = runWithRequestContext({ requestId: 'req-7', correlationId: 'corr-7' }, () =>
      toOutboxRow({ topic: 't', key: '1', value: 1, headers: { 'x-correlation-id': 'explicit' } }),
    );
    expect(row.headers).toEqual({ 'x-request-id': 'req-7', 'x-correlation-id': 'explicit' });
    expect(toOutgoingEvent(row).headers).toEqual(row.headers);
  });
});
