/**
 * A docs page with the script build (`/embed.js`, the built package's `dist/embed`) in a shadow root
 * of the mode the URL names (`?shadow=closed&lang=ar`), configured as a site's script would be.
 */
import type { DocsAssistantApi } from '../../../packages/docs-assistant/src/embed/api';
import { LABELS, type Lang, setDocumentLanguage } from './labels';
import { layoutFetch } from './scripted-fetch';
import { SITE, theme } from './site-options';

const params = new URLSearchParams(location.search);
const lang = (params.get('lang') ?? 'en') as Lang;
setDocumentLanguage(lang);

// Loaded from the site at run time, as a site's script tag would: not part of this bundle.
await import(/* @vite-ignore */ `${location.origin}/embed.js`);
// The embed's own global declaration allows a command queue before the script loads; it has loaded.
await (window.DocsAssistant as DocsAssistantApi).init({
  ...SITE,
  baseUrl: location.origin,
  theme: theme(params),
  shadow: params.get('shadow') === 'closed' ? 'closed' : 'open',
  labels: LABELS[lang],
  fetch: layoutFetch,
});
