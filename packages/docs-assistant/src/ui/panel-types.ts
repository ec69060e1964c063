import type { RefObject } from 'react';
import type { AssistantStatus, DocsAssistantState, UseDocsAssistantOptions } from '../chat/types.js';
import type { AskSource, DocsAssistantEvent, FeedbackOptions } from '../events/types.js';
import type { PartComponents } from '../parts/types.js';
import type { Features } from '../search/features.js';
import type { SupportOption } from '../views/support/types.js';
import type { StarterQuestionsOption } from './starter-questions.js';
import type { ClassNames, Variant } from './types.js';

/** What the shell can ask of a loaded panel (the imperative handle forwards to it). */
export interface PanelApi {
  ask(question: string, source?: AskSource): void;
  setInput(text: string): void;
  focusInput(): void;
  /** The conversation's state as rendered last (the history methods of the browser API use it). */
  chat?(): DocsAssistantState;
}

/** Requests made before the panel's code loaded; the panel carries them out when it mounts. */
export interface PendingActions {
  ask?: string;
  askSource?: AskSource;
  input?: string;
  focus?: boolean;
}

/** Props of the lazily loaded panel body (`panel.tsx`), given by the shell. */
export interface PanelProps {
  /** Hook options, with the shell's context store. */
  options: UseDocsAssistantOptions;
  variant: Variant;
  open: boolean;
  titleId: string;
  classNames?: ClassNames;
  starterQuestions?: StarterQuestionsOption;
  components?: PartComponents;
  docsBaseUrl?: string;
  allowedImageOrigins?: string[];
  /** The `features` and `defaultView` props: whether typing searches the docs (see `search/`). */
  search?: { features?: Features; defaultView?: 'search' | 'chat'; sourceAction?: 'link' | 'preview' };
  onClose?: () => void;
  onStatusChange: (status: AssistantStatus) => void;
  apiRef: RefObject<PanelApi | null>;
  pendingRef: RefObject<PendingActions>;
  /** Delivers an event to `onEvent` (never throws). */
  emit?: (event: DocsAssistantEvent) => void;
  /** The widget's `eventsIncludeText` and `feedback` props. */
  eventsIncludeText?: boolean;
  feedback?: boolean | FeedbackOptions;
  /** The widget's `share` and `support` props (views/share, views/support). */
  share?: boolean;
  support?: SupportOption;
  /** The share id of the page's `?assistant-share=` parameter: the panel shows that transcript. */
  sharedId?: string | null;
  /** The widget's `attachments` prop (views/attachments). */
  attachments?: boolean;
}
