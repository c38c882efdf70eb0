/** Gemini client protocol: what `/v1beta/models/{model}:generateContent` clients send and read. */
export { geminiClientRequestToChat } from './client-request';
export { chatResponseToGeminiClient } from './client-response';
export { createGeminiClientStreamWriter, type GeminiClientStreamWriter } from './client-stream';
export * from './client-count-tokens';
export * from './client-embeddings';
