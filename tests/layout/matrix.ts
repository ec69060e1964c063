/**
 * What the layout test covers: each way a site shows the widget, the languages, the viewports and
 * the states a reader meets. A result is keyed `target/state/viewport/lang` (known-failures.ts
 * uses the same keys).
 */
import { LANGS, type Lang } from './page/labels';

export { LANGS, type Lang };

export interface Target {
  name: string;
  /** The page: the React widget from the built package, or the script build. */
  page: 'react' | 'embed';
  query: string;
  closable: boolean;
  inFlow: boolean;
  closedRoot: boolean;
}

export const TARGETS: Target[] = [
  ...(['floating', 'side-panel', 'inline', 'modal'] as const).map((variant) => ({
    name: variant,
    page: 'react' as const,
    query: `variant=${variant}`,
    closable: variant !== 'inline',
    inFlow: variant === 'inline',
    closedRoot: false,
  })),
  ...(['open', 'closed'] as const).map((shadow) => ({
    name: `embed-${shadow}`,
    page: 'embed' as const,
    query: `shadow=${shadow}`,
    closable: true,
    inFlow: false,
    closedRoot: shadow === 'closed',
  })),
];

export interface Viewport {
  name: string;
  width: number;
  height: number;
}

/**
 * Phones to wide desktops, and 200% zoom. A browser zoomed to 200% lays the page out in half the
 * CSS pixels of its window (and media queries see that width), which is exactly a viewport of
 * half the size: so 200% zoom of a 1280×800 window is measured as 640×400. (`deviceScaleFactor`
 * only sharpens pixels; `Emulation.setPageScaleFactor` is pinch zoom, which lays nothing out again;
 * CSS `zoom` on the body leaves the viewport's width and the media queries as they were.)
 */
export const VIEWPORTS: Viewport[] = [
  { name: '320', width: 320, height: 568 },
  { name: '390', width: 390, height: 844 },
  { name: '768', width: 768, height: 1024 },
  { name: '1280', width: 1280, height: 800 },
  { name: '1440', width: 1440, height: 900 },
  { name: '1280@200%', width: 640, height: 400 },
];

export const STATES = [
  'empty',
  'conversation',
  'menu',
  'streaming',
  'stopped',
  'error',
  'history',
  'search',
  'shared',
] as const;
export type State = (typeof STATES)[number];

export const resultKey = (target: string, state: State, viewport: string, lang: Lang) =>
  `${target}/${state}/${viewport}/${lang}`;
