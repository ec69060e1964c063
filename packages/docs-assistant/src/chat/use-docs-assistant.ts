/**
 * The headless hook (`useDocsAssistant`): the conversation (`use-conversation.ts`) with the context
 * store given in the options, or one of its own when none is (`createContextStore`).
 */
import { useState } from 'react';
import { createContextStore } from '../context/store.js';
import type { DocsAssistantState, UseDocsAssistantOptions } from './types.js';
import { useConversation } from './use-conversation.js';

export function useDocsAssistant(options: UseDocsAssistantOptions): DocsAssistantState {
  const [ownContextStore] = useState(() => createContextStore());
  const contextStore = options.contextStore ?? ownContextStore;
  // useConversation reads its options by name each render (never by identity): no memo needed.
  return useConversation({ ...options, contextStore });
}
