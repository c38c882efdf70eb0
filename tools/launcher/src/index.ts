export { startEmbedded, type EmbeddedPlatform, type EmbeddedOptions } from './embedded';
export { startDistributed, type DistributedPlatform, type DistributedOptions } from './distributed';
export { ServiceProcess } from './service-process';
