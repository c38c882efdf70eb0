import type { AuditActor } from '@tollgate/persistence';
import { Incident } from './incident.entity';
import type { IncidentChange, IncidentsRepository, NewIncident } from './incidents.repository';
import { IncidentsService } from './incidents.service';

const ROOT: AuditActor = { id: 1, role: 'root' } as unknown as AuditActor;
const MINUTE = 60;

/** The incidents table in memory: create and modify as the repository does, without the audit trail. */
function inMemoryIncidents(): IncidentsRepository {
  const rows = new Map<number, Incident>();
  return {
    create: async (input: NewIncident) => {
      const incident = Object.assign(new Incident(), input, { id: rows.size + 1 });
      rows.set(incident.id, incident);
      return incident;
    },
    modify: async (id: number, change: IncidentChange) => {
      const found = rows.get(id);
      if (!found) return null;
      change(found);
      return found;
    },
  } as unknown as IncidentsRepository;
}

describe('IncidentsService', () => {
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  it('moves the opening update with the start when an operator corrects when the incident began', async () => {
    const service = new IncidentsService(inMemoryIncidents());
    const created = await service.create(
      ROOT,
      {
        title: 'Primary channel failing',
        description: '',
        title_en: '',
        description_en: '',
        status: 'investigating',
        severity: 'major',
        components: ['api'],
        update: 'Looking',
      },
      'en',
    );
    const earlier = created.started_at - 10 * MINUTE;

    const corrected = await service.update(ROOT, created.id, { started_at: earlier }, 'en');

    expect(corrected.started_at).toBe(earlier);
    expect(corrected.updates).toEqual([{ status: 'investigating', text: 'Looking', created_at: earlier }]);
  });

  it('keeps the timeline in order when the start moves past a later update', async () => {
    const service = new IncidentsService(inMemoryIncidents());
    const start = nowSeconds() - 30 * MINUTE;
    const created = await service.create(
      ROOT,
      {
        title: 'Slow answers',
        description: '',
        title_en: '',
        description_en: '',
        status: 'investigating',
        severity: 'minor',
        components: [],
        started_at: start,
      },
      'en',
    );
    const identified = await service.update(
      ROOT,
      created.id,
      { status: 'identified', update: 'Found it' },
      'en',
    );
    const secondAt = identified.updates[1]!.created_at;

    const moved = await service.update(ROOT, created.id, { started_at: secondAt + MINUTE }, 'en');

    expect(moved.updates.map((u) => u.created_at)).toEqual([secondAt, secondAt]);
  });

  it('leaves the timeline alone when the start does not change', async () => {
    const service = new IncidentsService(inMemoryIncidents());
    const start = nowSeconds() - 30 * MINUTE;
    const created = await service.create(
      ROOT,
      {
        title: 'Payments slow',
        description: '',
        title_en: '',
        description_en: '',
        status: 'investigating',
        severity: 'minor',
        components: ['payments'],
        started_at: start,
      },
      'en',
    );

    const renamed = await service.update(
      ROOT,
      created.id,
      { title: 'Card payments slow', started_at: start },
      'en',
    );

    expect(renamed.updates).toEqual(created.updates);
  });
});
