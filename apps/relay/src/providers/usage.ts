/** Token counts in one shape whatever the upstream reported; prompt tokens include cached ones. */
export interface NormalizedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
}

export function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
