/**
 * A docs page with `<DocsAssistant>` from the built package, in the variant and language the URL
 * names (`?variant=floating&lang=de`). Everything it shows comes from the reference service on
 * this origin, through `layoutFetch`.
 */
import { DocsAssistant, type Variant } from 'docs-assistant';
import 'docs-assistant/styles.css';
import { createRoot } from 'react-dom/client';
import { LABELS, type Lang, setDocumentLanguage } from './labels';
import { layoutFetch } from './scripted-fetch';
import { SITE, theme } from './site-options';

const params = new URLSearchParams(location.search);
const variant = (params.get('variant') ?? 'floating') as Variant;
const lang = (params.get('lang') ?? 'en') as Lang;
setDocumentLanguage(lang);

const widget = (
  <DocsAssistant
    {...SITE}
    baseUrl={location.origin}
    theme={theme(params)}
    variant={variant}
    labels={LABELS[lang]}
    fetch={layoutFetch}
  />
);
// Inline, the panel sits in the article; the other variants float over the page.
createRoot(document.getElementById(variant === 'inline' ? 'inline-assistant' : 'assistant')!).render(widget);
