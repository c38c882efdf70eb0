import type { Incident } from './incident-schema';
import { incidentInLanguage } from './texts-in-language';

const incident: Incident = {
  id: 1,
  title: 'Ошибки Claude',
  title_en: 'Claude errors',
  description: 'Разбираемся.',
  status: 'identified',
  severity: 'major',
  components: [],
  updates: [
    { status: 'investigating', text: 'Смотрим.', text_en: 'Looking.', created_at: 1 },
    { status: 'identified', text: 'Нашли.', created_at: 2 },
  ],
  started_at: 1,
  resolved_at: 0,
  created_time: 1,
  updated_time: 2,
};

describe('incidentInLanguage', () => {
  it('gives a Russian reader the default texts as served', () => {
    expect(incidentInLanguage(incident, 'ru')).toBe(incident);
  });

  it('gives an English reader each English text that was written and the default text for the rest', () => {
    const read = incidentInLanguage(incident, 'en');
    expect([read.title, read.description, ...read.updates.map((update) => update.text)]).toEqual([
      'Claude errors',
      'Разбираемся.',
      'Looking.',
      'Нашли.',
    ]);
  });
});
