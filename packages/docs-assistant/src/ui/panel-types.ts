import type { UseDocsAssistantOptions } from '../chat/types.js';
import type { DocsAssistantEvent, FeedbackOptions } from '../events/types.js';
import type { Labels } from '../labels/types.js';
import type { PartComponents } from '../parts/types.js';
import type { Features } from '../search/features.js';
import type { SupportOption } from '../views/support/types.js';
import type { Boundary, reportWidgetError } from './error-boundary.js';
import type { PanelBridge } from './panel-bridge.js';
import type { PanelHeader } from './panel-header.js';
import type { StarterQuestionsOption } from './starter-questions.js';
import type { ClassNames, Variant } from './types.js';

export type { PanelApi, PanelBridge } from './panel-bridge.js';

/**
 * The shell's error boundary and the panel's header, which the launcher has anyway: handed to the
 * panel rather than imported by it. A module both import is one esbuild splits into a chunk of its
 * own, a second file the launcher loads (see tests/size/lazy-views.test.ts), and one webpack and
 * Rspack cannot merge into the launcher's code.
 */
export interface ShellFrame {
  Boundary: typeof Boundary;
  reportWidgetError: typeof reportWidgetError;
  Header: typeof PanelHeader;
}

/** Props of the lazily loaded panel body (`panel.tsx`), given by the shell once. */
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
  /** The `features`, `defaultView` and `sourceAction` props: whether typing searches the docs (see `search/`). */
  search?: { features?: Features; defaultView?: 'search' | 'chat'; sourceAction?: 'link' | 'preview' };
  /** Omitted where the panel cannot be closed (inline). */
  onClose?: () => void;
  /** The one way between the shell and the panel (requests made before it loaded, its status). */
  bridge: PanelBridge;
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
  /** The host's `labels` overrides, which the panel provides to everything in it. */
  labels?: Partial<Labels>;
  /** The shell's error boundary and header (`ShellFrame`). */
  frame: ShellFrame;
  /** Withdraws the reader's consent (the `consent` prop, when the host does not decide it). */
  onWithdrawConsent?: () => void;
}
