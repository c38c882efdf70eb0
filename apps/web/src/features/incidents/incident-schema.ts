/** One incident exactly as admin's `GET /api/incident/` serves it: the contracts' schema. */
export {
  INCIDENT_SEVERITIES,
  INCIDENT_STATUSES,
  incidentPageSchema,
  incidentViewSchema as incidentSchema,
  type IncidentView as Incident,
} from '@tollgate/contracts';
