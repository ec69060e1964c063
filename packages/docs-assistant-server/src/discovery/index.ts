/**
 * The discovery API beside the v1 assistant endpoint: search, page, and the v2 (AI SDK 5) message
 * endpoint. All of them take the assistant key and answer from the same index and threads.
 */
export * from './feedback.js';
export * from './search.js';
export * from './share.js';
export * from './v2-message.js';
