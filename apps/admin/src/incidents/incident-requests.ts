/** The incident schemas live in the contracts, where the web reads them too. */
export {
  INCIDENT_SEVERITIES,
  INCIDENT_STATUSES,
  createIncidentRequestSchema,
  updateIncidentRequestSchema,
  type CreateIncidentRequest,
  type IncidentSeverity,
  type IncidentStatus,
  type IncidentUpdate,
  type IncidentView,
  type UpdateIncidentRequest,
} from '@tollgate/contracts';
