import { aUsageRecorded } from '@tollgate/testing';
import { uniqueEvents } from './usage-settlement.service';

describe('uniqueEvents', () => {
  it('keeps the first of events repeated within a batch, ids compared as PostgreSQL compares uuids', () => {
    const first = aUsageRecorded({ event_id: 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', quota: 7 });
    const again = { ...first, event_id: first.event_id.toLowerCase(), quota: 9 };
    const other = aUsageRecorded();

    expect(uniqueEvents([first, other, again])).toEqual([
      { ...first, event_id: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' },
      other,
    ]);
  });
});
