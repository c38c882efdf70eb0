export interface LogExportSettings {
  /** Rows an export reads per query: each query is short, so an export never holds a connection long. */
  exportBatchRows: number;
}

export const LOG_EXPORT_SETTINGS = Symbol('LOG_EXPORT_SETTINGS');
