import type { Preview } from '@storybook/react-vite';
import '../packages/docs-assistant/src/styles/docs-assistant.css';
import '../packages/docs-assistant/src/static-export/panel.css';

const preview: Preview = {
  parameters: {
    layout: 'padded',
    controls: { expanded: true, sort: 'requiredFirst' },
    // Delay between two lines of a replayed answer (in ms): reading pace in Storybook; the tests
    // compose the stories with 1 ms.
    pacing: { delayMs: 45 },
    a11y: { test: 'error' },
  },
};

export default preview;
