// @vitest-environment jsdom
/**
 * Every story is a test: composed with the Storybook preview (portable stories), rendered, its
 * `play` run (which reaches the state by streaming and checks it), then checked again here against
 * the table below and with axe. Answers replay at 1 ms a line.
 */
import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { render } from '@testing-library/react';
import axe from 'axe-core';
import type { ReactNode } from 'react';
import preview from '../../.storybook/preview';
import * as attachments from '../../stories/attachments.stories';
import * as consent from '../../stories/consent.stories';
import * as conversation from '../../stories/conversation.stories';
import * as errors from '../../stories/errors.stories';
import * as feedback from '../../stories/feedback.stories';
import * as header from '../../stories/header.stories';
import * as history from '../../stories/history.stories';
import * as insightsPanel from '../../stories/insights-panel.stories';
import * as layout from '../../stories/layout.stories';
import * as referenceService from '../../stories/reference-service.stories';
import * as review from '../../stories/review.stories';
import * as search from '../../stories/search.stories';
import * as shareSupport from '../../stories/share-support.stories';
import * as staticExport from '../../stories/static-export.stories';

setProjectAnnotations(preview);

/** Project annotations of the tests: answers replay at 1 ms a line. */
const FAST = { parameters: { pacing: { delayMs: 1 } } };

/** What must be on screen once a story's play has finished. */
interface Expectation {
  /** `data-status` of the widget's root (or of the static export region). */
  status?: 'ready' | 'streaming' | 'error' | 'idle' | 'running' | 'completed' | 'failed';
  /** `data-docs-assistant` values and how many of each. */
  hooks?: Record<string, number>;
  /** CSS selectors (data attributes only) that must match. */
  present?: string[];
  /** Text the story shows. */
  text?: RegExp;
  /** The widget rendered nothing at all. */
  empty?: true;
  /** axe rules left out for this story, each with its reason next to it. */
  axeExceptions?: string[];
}

const assistantMessage = '[data-docs-assistant="message"][data-role="assistant"]';

const EXPECTATIONS: Record<string, Record<string, Expectation>> = {
  attachments: {
    Attachments: { status: 'ready', hooks: { attachment: 2, 'attachment-preview': 1, message: 0 } },
    AttachmentRefused: { status: 'ready', hooks: { attachment: 0 }, text: /“setup\.exe” was not attached/ },
    AttachmentSent: { status: 'ready', hooks: { attachment: 0, message: 2 } },
    Modal: {
      hooks: { backdrop: 1 },
      present: ['[data-docs-assistant="panel"][data-variant="modal"][aria-modal="true"]'],
    },
    ModalFollowingHostDarkMode: {
      status: 'ready',
      hooks: { message: 2 },
      present: ['[data-docs-assistant="root"][data-theme="dark"]'],
    },
  },
  header: {
    Conversation: {
      status: 'ready',
      hooks: { header: 1, message: 2, menu: 0 },
      present: ['[data-docs-assistant="header"] > [data-action="close"]:last-child'],
    },
    EmptyPanel: {
      status: 'ready',
      hooks: { header: 1, message: 0 },
      present: ['[data-action="new-conversation"]:disabled'],
    },
    MenuOpen: {
      status: 'ready',
      hooks: { menu: 1 },
      present: [
        '[data-action="more"][aria-expanded="true"]',
        '[role="menu"] [data-action="contact-support"]',
      ],
    },
    GermanLabels: {
      status: 'ready',
      hooks: { menu: 1 },
      present: ['[data-docs-assistant="root"][lang="de"]'],
      text: /Fragen Sie die Dokumentation/,
    },
    RightToLeft: {
      status: 'ready',
      hooks: { menu: 1 },
      present: ['[data-docs-assistant="root"][dir="rtl"]'],
    },
    Narrow320: {
      status: 'ready',
      hooks: { header: 1, message: 2 },
      present: ['[data-variant="floating"][data-state="open"] [data-action="close"]'],
    },
  },
  shareSupport: {
    SharedTranscript: {
      hooks: { 'shared-transcript': 1, message: 0 },
      present: ['[data-action="continue-shared"]', '[data-docs-assistant="shared-messages"] a[href]'],
    },
    SupportPrompt: {
      status: 'ready',
      hooks: { message: 2, 'support-prompt': 1 },
      present: ['[data-support-trigger="no-answer"] a[href^="mailto:docs-team@example.com"]'],
    },
  },
  feedback: {
    FeedbackOffered: {
      status: 'ready',
      hooks: { message: 2, feedback: 1 },
      present: [
        '[data-action="feedback-up"][aria-pressed="false"]',
        '[data-action="feedback-down"][aria-pressed="false"]',
      ],
    },
    FeedbackCommentOpen: {
      status: 'ready',
      hooks: { feedback: 1, 'feedback-comment': 1 },
      present: ['[data-action="feedback-up"][aria-pressed="true"]'],
    },
    FeedbackGiven: {
      status: 'ready',
      hooks: { feedback: 1, 'feedback-comment': 0 },
      present: ['[data-action="feedback-down"][aria-pressed="true"]'],
      text: /Thanks for your feedback\./,
    },
  },
  history: {
    HistoryEmpty: { hooks: { history: 1, 'history-item': 0, message: 0 }, text: /No past conversations yet/ },
    HistoryMany: {
      hooks: { history: 1, 'history-item': 8, message: 0 },
      present: ['[data-action="open-conversation"][aria-current="true"] time[datetime]'],
    },
    HistoryNoSearchResults: {
      hooks: { history: 1, 'history-item': 0 },
      text: /No conversation mentions “kubernetes”/,
    },
  },
  consent: {
    ConsentNotice: {
      hooks: { consent: 1, composer: 0, message: 0 },
      present: ['[data-action="accept-consent"]'],
    },
    ConsentNoticeCustom: {
      hooks: { consent: 1, 'consent-link': 1 },
      text: /Acme Docs AI sends your questions/,
    },
    ConsentAccepted: { status: 'ready', hooks: { consent: 0, message: 2 } },
    PageStartersByPrefix: { status: 'ready', hooks: { 'starter-questions': 1, suggestion: 1 } },
    PageStartersFromFunction: { status: 'ready', hooks: { 'starter-questions': 1, suggestion: 3 } },
  },
  conversation: {
    Empty: { status: 'ready', hooks: { message: 0, suggestion: 3, 'starter-questions': 1 } },
    ShortAnswer: { status: 'ready', hooks: { message: 2 }, text: /npm install docs-assistant/ },
    LongAnswer: { status: 'ready', hooks: { message: 2 }, present: [`${assistantMessage} table`] },
    ReasoningStreaming: {
      status: 'streaming',
      present: ['[data-part-type="reasoning"]', `${assistantMessage}[data-streaming]`],
    },
    ReasoningDone: { status: 'ready', present: ['[data-part-type="reasoning"]', '[data-part-type="text"]'] },
    SearchPartialCall: {
      status: 'streaming',
      present: ['[data-tool-name="search"][data-tool-state="partial-call"]'],
    },
    SearchCall: { status: 'streaming', present: ['[data-tool-name="search"][data-tool-state="call"]'] },
    SearchResult: { status: 'ready', hooks: { source: 3 }, present: ['[data-tool-state="result"]'] },
    SourcesFromParts: { status: 'ready', hooks: { source: 2 } },
    Suggestions: { status: 'ready', hooks: { suggestion: 3 } },
    ContextFromSelection: {
      status: 'ready',
      hooks: { context: 1 },
      present: ['[data-context-type="textSelection"]'],
    },
    ContextFromCodeBlock: { status: 'ready', hooks: { context: 1 }, present: ['[data-context-type="code"]'] },
    RestoredConversation: { status: 'ready', hooks: { message: 2, source: 1 } },
    StoppedMidStream: { status: 'ready', hooks: { message: 2, error: 0 } },
    CustomRenderers: { status: 'ready', present: ['[data-story="custom-search"]'], text: /API and protocol/ },
  },
  errors: {
    Unauthorized401: { status: 'error', present: ['[data-error-kind="auth"]'] },
    Forbidden403: { status: 'error', present: ['[data-error-kind="auth"]'] },
    RateLimited429: { status: 'error', present: ['[data-error-kind="rate-limit"]'], text: /30 seconds/ },
    NetworkFailure: { status: 'error', present: ['[data-error-kind="network"]', '[data-action="retry"]'] },
    StreamBrokenMidAnswer: { status: 'error', present: ['[data-error-kind="stream"]', assistantMessage] },
    StreamErrorPart: { status: 'error', present: ['[data-error-kind="stream"]', assistantMessage] },
    RetryAfterNetworkFailure: { status: 'ready', hooks: { error: 0, message: 2 } },
    AdminKeyRefused: {
      hooks: { message: 0 },
      present: ['[data-error-kind="config"]', '[data-docs-assistant="error-detail"]'],
    },
    AirGappedMessage: {
      present: ['[data-unavailable]', '[data-error-kind="unavailable"]'],
      hooks: { composer: 0 },
    },
    AirGappedHidden: { empty: true },
  },
  layout: {
    Floating: {
      status: 'ready',
      present: ['[data-docs-assistant="panel"][data-variant="floating"][data-state="open"]'],
    },
    FloatingClosed: {
      present: ['[data-docs-assistant="launcher"][data-state="closed"]'],
      hooks: { panel: 0 },
    },
    SidePanel: { status: 'ready', present: ['[data-docs-assistant="panel"][data-variant="side-panel"]'] },
    Inline: {
      status: 'ready',
      present: ['[data-docs-assistant="panel"][data-variant="inline"]'],
      hooks: { launcher: 0 },
    },
    Light: { status: 'ready', present: ['[data-docs-assistant="root"][data-theme="light"]'] },
    Dark: { status: 'ready', present: ['[data-docs-assistant="root"][data-theme="dark"]'] },
    CustomTheme: { status: 'ready', text: /Ask Acme Docs/ },
    RightToLeftArabic: {
      status: 'ready',
      present: ['[data-docs-assistant="root"][dir="rtl"]'],
      hooks: { source: 1 },
    },
    RightToLeftHebrew: { status: 'ready', text: /שאלו את התיעוד/ },
    Mobile: {
      status: 'ready',
      hooks: { source: 3 },
      present: ['[data-variant="floating"][data-state="open"]'],
    },
  },
  referenceService: {
    LiveAnswers: { status: 'ready', hooks: { message: 2 }, present: ['[data-docs-assistant="source"]'] },
  },
  review: {
    // 9 answered questions (18 messages), 3 refused before an answer, 1 cut off mid-answer.
    AllStates: {
      hooks: { root: 16, error: 6, message: 23 },
    },
  },
  search: {
    Results: {
      hooks: { message: 0 },
      present: ['[data-docs-assistant="search-result"][aria-selected="true"] mark', '[data-action="ask-ai"]'],
    },
    NoResults: { hooks: { 'search-result': 0 }, text: /No results for “xylophone quaternion”/ },
    SearchError: {
      present: ['[data-docs-assistant="search"] [data-error-kind="network"]', '[data-action="ask-ai"]'],
    },
  },
  insightsPanel: {
    Loading: { text: /Loading insights…/ },
    Data: { present: ['[data-docs-assistant="insights"] svg[role="img"]'], text: /invoices by cheque/ },
    Empty: { text: /No questions were asked from 2026-11-07 to 2026-12-06\./ },
    RouteError: { text: /Sign in as a user allowed to read the insights\./ },
    Transcript: { present: ['[data-insights="transcript"]'], text: /Contact support from the dashboard\./ },
    Dark: { present: ['[data-docs-assistant="insights"][data-theme="dark"]'] },
  },
  staticExport: {
    Idle: { status: 'idle' },
    Running: { status: 'running', present: ['[data-static-export="progress"]'] },
    CompletedWithLink: { status: 'completed', present: ['[data-static-export="download"]'] },
    ExpiredThenRegenerated: { status: 'completed', present: ['[data-static-export="download"]'] },
    Failed: { status: 'failed', present: ['[data-static-export="failure"]'] },
  },
};

/** A composed story as these tests use it (the modules' own types differ per story file). */
interface ComposedStory {
  (): ReactNode;
  play?: (context: { canvasElement: HTMLElement }) => Promise<void>;
}

const MODULES = {
  attachments,
  consent,
  conversation,
  errors,
  feedback,
  header,
  history,
  insightsPanel,
  layout,
  referenceService,
  review,
  search,
  shareSupport,
  staticExport,
};

async function axeViolations(element: Element, exceptions: string[] = []) {
  // jsdom computes no colours: contrast is left to the addon in Storybook and to the browser tests.
  const rules = Object.fromEntries(['color-contrast', ...exceptions].map((id) => [id, { enabled: false }]));
  const results = await axe.run(element, { rules });
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

function checkExpectation(container: HTMLElement, expectation: Expectation) {
  if (expectation.empty) {
    expect(container.querySelector('[data-docs-assistant]')).toBeNull();
    expect(container.textContent).toBe('');
    return;
  }
  if (expectation.status) {
    const root =
      container.querySelector('[data-docs-assistant="root"]') ??
      container.querySelector('[data-docs-assistant="static-export"]');
    expect(root).toHaveAttribute('data-status', expectation.status);
  }
  for (const [name, count] of Object.entries(expectation.hooks ?? {})) {
    expect(container.querySelectorAll(`[data-docs-assistant="${name}"]`), name).toHaveLength(count);
  }
  for (const selector of expectation.present ?? []) {
    expect(container.querySelector(selector), selector).not.toBeNull();
  }
  if (expectation.text) expect(container.textContent).toMatch(expectation.text);
}

for (const [moduleName, module] of Object.entries(MODULES)) {
  const stories = composeStories(module, FAST);
  describe(`stories: ${moduleName}`, () => {
    it('has an expectation for every story and a story for every expectation', () => {
      expect(Object.keys(stories).sort()).toEqual(Object.keys(EXPECTATIONS[moduleName] ?? {}).sort());
    });

    it.each(Object.entries(stories) as Array<[string, ComposedStory]>)('%s', async (name, Story) => {
      const { container } = render(<Story />);
      await Story.play?.({ canvasElement: container });
      const expectation = EXPECTATIONS[moduleName]![name]!;
      checkExpectation(container, expectation);
      expect(await axeViolations(container, expectation.axeExceptions)).toEqual([]);
    });
  });
}
