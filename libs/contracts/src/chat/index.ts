export * from './chat-requests';
export * from './chat-views';
export * from './chat-stream';
