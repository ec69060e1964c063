import type { Preview } from '@storybook/react-vite';
import '../packages/docs-assistant/src/styles/docs-assistant.css';

/** `?pacing=<ms>` in the story frame's URL, if given. */
function pacingFromUrl(): number | undefined {
  const value = typeof location === 'undefined' ? null : new URLSearchParams(location.search).get('pacing');
  return value !== null && /^\d+$/.test(value) ? Number(value) : undefined;
}

const preview: Preview = {
  parameters: {
    layout: 'padded',
    controls: { expanded: true, sort: 'requiredFirst' },
    // Delay between two lines of a replayed answer (in ms): reading pace in Storybook; the tests
    // compose the stories with 1 ms, and the visual check asks for it with `?pacing=1` in the
    // story frame's URL (scripts/visual.ts).
    pacing: { delayMs: pacingFromUrl() ?? 45 },
    a11y: { test: 'error' },
  },
};

export default preview;
