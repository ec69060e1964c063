import type { UseDocsAssistantOptions } from '../chat/types.js';
import type { ContextStore } from '../context/types.js';
import type { errorEvent } from '../events/emit.js';
import type { DocsAssistantEvent, FeedbackOptions } from '../events/types.js';
import type { withLabels } from '../labels/merge.js';
import type { Labels, ShellLabels } from '../labels/types.js';
import type { PartComponents } from '../parts/types.js';
import type { Features } from '../search/features.js';
import type { SupportOption } from '../views/support/types.js';
import type { visuallyHidden } from './dom.js';
import type { Boundary, reportWidgetError } from './error-boundary.js';
import type { Icon } from './icons.js';
import type { PanelBridge } from './panel-bridge.js';
import type { PanelHeader } from './panel-header.js';
import type { StarterQuestionsOption } from './starter-questions.js';
import type { ClassNames, Variant } from './types.js';

export type { PanelApi, PanelBridge } from './panel-bridge.js';

/**
 * What the panel uses of the launcher's modules, handed to it rather than imported: the shell's
 * error boundary and header, the icon and the close button's path, the screen-reader-only style,
 * the `error` event, the labels' merge and the shell's own labels. A module both import is one
 * esbuild splits into a chunk of its own, a second file the launcher loads (see
 * tests/size/lazy-views.test.ts), and one webpack and Rspack cannot merge into the launcher's code.
 * The panel gives it to everything in it (`ShellFrameContext`, `shell-frame.tsx`).
 */
export interface ShellFrame {
  Boundary: typeof Boundary;
  reportWidgetError: typeof reportWidgetError;
  Header: typeof PanelHeader;
  Icon: typeof Icon;
  /** The close icon's path (`CLOSE` in `icons.tsx`). */
  close: string;
  visuallyHidden: typeof visuallyHidden;
  errorEvent: typeof errorEvent;
  withLabels: typeof withLabels;
  shellLabels: ShellLabels;
}

/** Props of the lazily loaded panel body (`panel.tsx`), given by the shell once. */
export interface PanelProps {
  /** Hook options, with the shell's context store. */
  options: UseDocsAssistantOptions & { contextStore: ContextStore };
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
  /** What the panel uses of the launcher's modules (`ShellFrame`). */
  frame: ShellFrame;
  /** Withdraws the reader's consent (the `consent` prop, when the host does not decide it). */
  onWithdrawConsent?: () => void;
}
