/**
 * What the visual check photographs (scripts/visual.ts): every story of the built Storybook at its
 * natural size, plus a phone (390 px) and a dark picture of the stories a reader meets first (the
 * header and its menu, a conversation), and which baselines the README shows.
 */

export interface StoryInfo {
  id: string;
  title: string;
  name: string;
  /** The story's `layout` parameter: `fullscreen` stories position themselves on the page. */
  layout?: string;
  /** The story's viewport global (`mobile1`), for stories made for a phone. */
  viewport?: string;
}

export interface Shot {
  /** The baseline's file name without `.png`: the story id, plus `--390` or `--dark`. */
  name: string;
  storyId: string;
  width: number;
  height: number;
  /** `page`: the whole viewport (the story positions itself); `root`: the story's own box. */
  clip: 'page' | 'root';
  /** Story args set through the frame's URL (`theme:dark`). */
  args?: string;
}

/** A story in a column of its own, as a docs page's sidebar or a phone would give it. */
const COLUMN = { width: 520, height: 700 };
/** A desktop page, for stories that float or dock over a page. */
const DESKTOP = { width: 1280, height: 800 };
/** Storybook's phone viewports (its `viewport` global), by name. */
const PHONES: Record<string, { width: number; height: number }> = {
  mobile1: { width: 320, height: 568 },
  mobile2: { width: 414, height: 896 },
};
/** Stories wider than a column by design. */
const WIDE: Record<string, { width: number; height: number }> = {
  'docsassistant-review--all-states': { width: 1400, height: 900 },
};
/** Stories that also get a 390 px and a dark picture: the header and menu, and a conversation. */
const FIRST_MINUTE = [
  /header|menu/i,
  /^docsassistant-conversation--(empty|long-answer|search-result|stopped-mid-stream)$/,
];

export function shotsFor(stories: StoryInfo[]): Shot[] {
  const shots: Shot[] = [];
  for (const story of stories) {
    const page = story.layout === 'fullscreen';
    const phone = story.viewport ? PHONES[story.viewport] : undefined;
    const size = WIDE[story.id] ?? phone ?? (page ? DESKTOP : COLUMN);
    const base = { storyId: story.id, clip: page ? ('page' as const) : ('root' as const), ...size };
    shots.push({ name: story.id, ...base });
    if (
      FIRST_MINUTE.some((pattern) => pattern.test(story.id) || pattern.test(`${story.title} ${story.name}`))
    ) {
      shots.push({ name: `${story.id}--390`, ...base, width: 390, height: 844 });
      shots.push({ name: `${story.id}--dark`, ...base, args: 'theme:dark' });
    }
  }
  return shots;
}

/**
 * The README's screenshots (`docs/images/<file>`), each the accepted baseline of one shot: the
 * accept command copies them, and tests/visual/readme-images.test.ts checks they are the same bytes.
 */
export const README_IMAGES: Record<string, string> = {
  'long-answer.png': 'docsassistant-conversation--long-answer',
  'search-and-sources.png': 'docsassistant-conversation--search-result',
  'dark.png': 'docsassistant-layout-and-theme--dark',
  'error-rate-limited.png': 'docsassistant-errors--rate-limited-429',
  'error-stream-broken.png': 'docsassistant-errors--stream-broken-mid-answer',
  'custom-theme.png': 'docsassistant-layout-and-theme--custom-theme',
  'right-to-left.png': 'docsassistant-layout-and-theme--right-to-left-arabic',
  'mobile.png': 'docsassistant-layout-and-theme--mobile',
  'static-export.png': 'staticexportpanel--completed-with-link',
  'floating.png': 'docsassistant-layout-and-theme--floating',
  'side-panel.png': 'docsassistant-layout-and-theme--side-panel',
  'all-states.png': 'docsassistant-review--all-states',
  'phone-conversation.png': 'docsassistant-conversation--long-answer--390',
};
