export { STREAM_RENDER_THROTTLE_MS } from './config';
export { parseRetryAfter } from './errors';
export {
  createLocalThreadStorage,
  createMemoryThreadStorage,
  STORED_THREAD_VERSION,
  threadStorageKey,
} from './storage';
export { MalformedStreamError } from './stream-tap';
export type * from './types';
export { useDocsAssistant } from './use-docs-assistant';
