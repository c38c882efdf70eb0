export { startChat } from './start-chat';
export { chatConfigSchema, type ChatConfig } from './config';
