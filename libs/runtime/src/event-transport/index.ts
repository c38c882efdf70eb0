export * from './bus-event.decorator';
export * from './event-bus-transport';
export { decodeWithSchema, failureRule, MalformedEventError } from './consumer-rules';
