/**
 * Where an answer's feedback buttons go. The buttons, the comment form and the request that sends
 * a vote are an on-demand view (`views/feedback/`), loaded with the first finished answer; what the
 * panel holds is this slot and the context that configures it.
 */
import { type CSSProperties, createContext, lazy, Suspense, useContext } from 'react';
import { assistantEndpoint } from '../chat/config.js';
import { httpError } from '../chat/errors.js';
import type { UseDocsAssistantOptions } from '../chat/types.js';
import { useLabels } from '../labels/index.js';
import { serviceOffers } from '../protocol/capabilities.js';
import type { errorEvent } from './emit.js';
import type { DocsAssistantEvent, FeedbackOptions } from './types.js';

export interface FeedbackConfig {
  /** The hook's options: where and how the service is reached (domain, key, fetch, headers). */
  options: () => UseDocsAssistantOptions;
  feedback: FeedbackOptions;
  emit: (event: DocsAssistantEvent) => void;
  includeText: boolean;
  threadId?: string;
  threadKey?: string;
  /** What the view uses of the launcher's modules, which the panel has from the shell (`ShellFrame`). */
  shell: ShellKit;
}

/** The `error` event and the screen-reader-only style: the launcher's (`events/emit.ts`, `ui/dom.ts`). */
export interface ShellKit {
  errorEvent: typeof errorEvent;
  visuallyHidden: CSSProperties;
}

/**
 * What the view uses of the panel's and the launcher's modules, handed to it rather than imported:
 * a lazy chunk that imports a module the panel or the launcher also has makes esbuild move that
 * module into a shared chunk of its own (one more file up front, gzipped apart), see `npm run size`.
 * The launcher's come from the shell (`FeedbackConfig.shell`): the panel imports none of its modules.
 */
const panelKit = { assistantEndpoint, httpError, serviceOffers };
export type FeedbackKit = typeof panelKit & ShellKit;

export const FeedbackContext = createContext<FeedbackConfig | null>(null);

const FeedbackView = lazy(() => import('../views/feedback/feedback.js'));

export function FeedbackSlot({ messageId }: { messageId: string }) {
  const config = useContext(FeedbackContext);
  const labels = useLabels();
  return config ? (
    <Suspense fallback={null}>
      <FeedbackView
        config={config}
        kit={{
          ...panelKit,
          errorEvent: config.shell.errorEvent,
          visuallyHidden: config.shell.visuallyHidden,
        }}
        labels={labels}
        messageId={messageId}
      />
    </Suspense>
  ) : null;
}
