import { STORAGE_KEYS } from '../../lib/local-storage-keys';
import { dismissIncident, incidentNoticeKey, readDismissedIncidents } from './dismissed-incidents';

describe('dismissed incidents', () => {
  beforeEach(() => localStorage.clear());

  it('hold for the incident as it was: an update makes a new notice', () => {
    dismissIncident(incidentNoticeKey({ id: 3, updated_time: 100 }));
    expect(readDismissedIncidents()).toContain('3:100');
    expect(readDismissedIncidents()).not.toContain(incidentNoticeKey({ id: 3, updated_time: 160 }));
  });

  it('keep the latest 50 only, without duplicates', () => {
    for (let id = 1; id <= 60; id++) dismissIncident(`${id}:1`);
    dismissIncident('60:1');
    const kept = readDismissedIncidents();
    expect(kept).toHaveLength(50);
    expect(kept[0]).toBe('11:1');
    expect(kept.at(-1)).toBe('60:1');
  });

  it('read a damaged stored value as none dismissed', () => {
    localStorage.setItem(STORAGE_KEYS.dismissedIncidents, '{not json');
    expect(readDismissedIncidents()).toEqual([]);
    localStorage.setItem(STORAGE_KEYS.dismissedIncidents, '{"a":1}');
    expect(readDismissedIncidents()).toEqual([]);
  });
});
