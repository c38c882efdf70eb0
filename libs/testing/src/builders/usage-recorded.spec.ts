import { usageRecordedV1 } from '@tollgate/contracts';
import { aUsageRecorded } from './usage-recorded';

describe('aUsageRecorded', () => {
  it('builds a usage.recorded v1 that passes its schema, with a fresh event of its own each time', () => {
    const first = aUsageRecorded();
    const second = aUsageRecorded();

    expect(usageRecordedV1.parse(first)).toEqual(first);
    expect(second.event_id).not.toBe(first.event_id);
    expect(second.request_id).not.toBe(first.request_id);
  });

  it('keeps what the overrides say, the request id following a given event id', () => {
    const event = aUsageRecorded({ event_id: '7f0c1a52-3f1e-4a8b-9d0e-2b6c5a4f3e21', user_id: 42, quota: 5 });

    expect(event).toMatchObject({
      event_id: '7f0c1a52-3f1e-4a8b-9d0e-2b6c5a4f3e21',
      request_id: 'req-7f0c1a52-3f1e-4a8b-9d0e-2b6c5a4f3e21',
      user_id: 42,
      quota: 5,
    });
  });
});
