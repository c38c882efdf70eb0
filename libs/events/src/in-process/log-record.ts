/** One record of an in-process partition. The value stays JSON text, as it would on a broker. */
export interface LogRecord {
  offset: number;
  key: string;
  /** JSON text of the value; `null` is a tombstone. */
  value: string | null;
  headers: Record<string, string>;
  timestamp: number;
}
