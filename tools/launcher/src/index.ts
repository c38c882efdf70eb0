export { startEmbedded, type EmbeddedPlatform, type EmbeddedOptions } from './embedded';
