export { startEmbedded, type EmbeddedPlatform, type EmbeddedOptions } from './embedded';
export { tuneEmbeddedHeap } from './embedded-heap';
export { startDistributed, type DistributedPlatform, type DistributedOptions } from './distributed';
export { ServiceProcess } from './service-process';
export { serviceNodeFlags } from './service-node-flags';
export { DEFAULT_READY_TIMEOUT_MS, READY_TIMEOUT_ENV, readyTimeoutFromEnv } from './ready-timeout';
