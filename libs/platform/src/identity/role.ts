import { Role } from '@tollgate/contracts';

export { Role };

/** A higher role includes every lower one (root includes admin includes user). */
export const hasRole = (role: Role, minimum: Role): boolean => role >= minimum;
