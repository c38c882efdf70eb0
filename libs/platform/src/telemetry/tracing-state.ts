let exportingSpans = false;

/**
 * Whether the process's telemetry exports spans. createServiceApp reads it to decide whether to trace
 * each request (a span nobody exports is pointless work); the runtime's startTelemetry sets it.
 */
export const isTracingEnabled = (): boolean => exportingSpans;

/** For whoever starts and stops the process's telemetry (@tollgate/runtime's startTelemetry) only. */
export const setTracingEnabled = (enabled: boolean): void => {
  exportingSpans = enabled;
};
