export * from './bus-event.decorator';
export * from './event-bus-transport';
export { decodeWithSchema, MalformedEventError } from './decode-with-schema';
