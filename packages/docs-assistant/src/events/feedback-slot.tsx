/**
 * Where an answer's feedback buttons go. The buttons, the comment form and the request that sends
 * a vote are an on-demand view (`views/feedback/`), loaded with the first finished answer; what the
 * panel holds is this slot and the context that configures it.
 */
import { createContext, lazy, Suspense, useContext } from 'react';
import type { UseDocsAssistantOptions } from '../chat/types.js';
import type { DocsAssistantEvent, FeedbackOptions } from './types.js';

export interface FeedbackConfig {
  /** The hook's options: where and how the service is reached (domain, key, fetch, headers). */
  options: () => UseDocsAssistantOptions;
  feedback: FeedbackOptions;
  emit: (event: DocsAssistantEvent) => void;
  includeText: boolean;
  threadId?: string;
  threadKey?: string;
}

export const FeedbackContext = createContext<FeedbackConfig | null>(null);

const FeedbackView = lazy(() => import('../views/feedback/feedback.js'));

export function FeedbackSlot({ messageId }: { messageId: string }) {
  const config = useContext(FeedbackContext);
  return config ? (
    <Suspense fallback={null}>
      <FeedbackView config={config} messageId={messageId} />
    </Suspense>
  ) : null;
}
