/** Roles as new-api numbers them; a higher role includes every lower one. Belongs in contracts (see report). */
export enum Role {
  User = 1,
  Admin = 10,
  Root = 100,
}

export const hasRole = (role: Role, minimum: Role): boolean => role >= minimum;
