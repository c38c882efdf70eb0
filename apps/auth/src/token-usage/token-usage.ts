/** What token usage reads of a usage.recorded event. */
export interface UsageOfToken {
  event_id: string;
  token_id: number | null;
  quota: number;
  created_at: number;
}
