import { latestIncidentText } from './latest-incident-text';

const step = (text: string, created_at: number) => ({ status: 'investigating' as const, text, created_at });

describe('the latest text of an incident', () => {
  it('is the newest update that says something, with its time', () => {
    const incident = {
      description: 'Some answers fail.',
      updates: [step('Looking into it.', 100), step('Fix deployed, monitoring.', 200), step('', 300)],
    };
    expect(latestIncidentText(incident)).toEqual({ text: 'Fix deployed, monitoring.', updatedAt: 200 });
  });

  it('is the description while no update has any text', () => {
    const incident = { description: 'Some answers fail.', updates: [step('', 100), step('  ', 200)] };
    expect(latestIncidentText(incident)).toEqual({ text: 'Some answers fail.', updatedAt: null });
  });

  it("gives no update time for the timeline's opening entry, written with the incident at its start", () => {
    const incident = {
      description: 'Some answers fail.',
      updates: [step('Looking into it.', 100), step('', 300)],
    };
    expect(latestIncidentText(incident)).toEqual({ text: 'Looking into it.', updatedAt: null });
  });
});
