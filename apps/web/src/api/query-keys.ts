/** Every TanStack Query key the app uses, so invalidation and persistence refer to one list. */
export const queryKeys = {
  status: ['status'] as const,
  notice: ['notice'] as const,
  self: ['user', 'self'] as const,
} as const;
