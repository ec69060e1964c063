import { setTimeout as delay } from 'node:timers/promises';
import { HydrationMark } from '../hydration-mark';

/**
 * Time the page's content takes to arrive (in ms), like docs read from a CMS: the layout and the
 * widget hydrate first and the page's HTML streams in after, into DOM the widget already watches.
 */
const CONTENT_DELAY_MS = 300;

/** A second route, reached by client-side navigation, whose code block streams in after the shell. */
export default async function ThemingGuide() {
  await delay(CONTENT_DELAY_MS);
  return (
    <article>
      <h1>Theming guide</h1>
      <p>Colours come from CSS variables that the widget reads at run time.</p>
      <pre>
        <code className="language-css">{`:root {
  --acme-accent: #4f46e5;
}`}</code>
      </pre>
      <HydrationMark />
    </article>
  );
}
