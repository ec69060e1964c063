import { DocsAssistant } from 'docs-assistant';
import { StrictMode, useCallback, useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import 'docs-assistant/styles.css';
import './site.css';
import { findPage, pages } from './docs-content';
import { MarkdownPage } from './markdown-page';

/** What `demo/serve.ts` injects into the page: where the assistant is and the key to use. */
interface DemoConfig {
  domain: string;
  apiKey: string;
  baseUrl: string;
}

declare global {
  interface Window {
    __DOCS_ASSISTANT_DEMO__?: DemoConfig;
  }
}

const STARTER_QUESTIONS = [
  'How do I add the assistant to my site?',
  'How do I change the colors?',
  'What happens when the assistant key is rejected?',
];

/**
 * "Contact support": a new issue on the project's tracker, with the conversation as its body
 * (`{transcript}` is replaced by a Markdown excerpt of it).
 */
const SUPPORT = 'https://github.com/docs-assistant/docs-assistant/issues/new?body={transcript}';

function usePathname(): [string, (path: string) => void] {
  const [pathname, setPathname] = useState(() => window.location.pathname);
  useEffect(() => {
    const onPop = () => setPathname(window.location.pathname);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = useCallback((href: string) => {
    const url = new URL(href, window.location.href);
    window.history.pushState(null, '', url.pathname + url.search + url.hash);
    setPathname(url.pathname);
    if (url.hash) {
      requestAnimationFrame(() =>
        document.getElementById(decodeURIComponent(url.hash.slice(1)))?.scrollIntoView(),
      );
    } else {
      window.scrollTo(0, 0);
    }
  }, []);
  return [pathname, navigate];
}

/** Internal links navigate client-side (the assistant's source links included), like a real docs SPA. */
function useClientSideLinks(navigate: (href: string) => void) {
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
        return;
      const anchor = (event.target as Element | null)?.closest?.('a');
      if (!anchor || anchor.target === '_blank' || anchor.hasAttribute('download')) return;
      const url = new URL(anchor.href, window.location.href);
      if (url.origin !== window.location.origin || !findPage(url.pathname)) return;
      event.preventDefault();
      navigate(url.href);
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [navigate]);
}

function App() {
  const [pathname, navigate] = usePathname();
  useClientSideLinks(navigate);
  const page = findPage(pathname);
  const config = window.__DOCS_ASSISTANT_DEMO__;

  useEffect(() => {
    document.title = page ? `${page.title} — docs-assistant` : 'Not found — docs-assistant';
  }, [page]);

  const nav = useMemo(
    () =>
      pages.map((p) => (
        <li key={p.path}>
          <a href={p.path} aria-current={p.path === page?.path ? 'page' : undefined}>
            {p.title}
          </a>
        </li>
      )),
    [page?.path],
  );

  return (
    <div className="site">
      <header className="site-header">
        <a className="site-brand" href="/">
          docs-assistant
        </a>
        <span className="site-tagline">Documentation — ask the assistant with Ctrl+I (⌘I on macOS)</span>
      </header>
      <nav className="site-nav" aria-label="Documentation">
        <ul>{nav}</ul>
      </nav>
      <main className="site-main" id="content">
        {page ? (
          <MarkdownPage key={page.path} markdown={page.body} />
        ) : (
          <article>
            <h1>Page not found</h1>
            <p>
              There is no page at <code>{pathname}</code>. Pick one from the navigation.
            </p>
          </article>
        )}
      </main>
      {config ? (
        <DocsAssistant
          domain={config.domain}
          apiKey={config.apiKey}
          baseUrl={config.baseUrl}
          starterQuestions={STARTER_QUESTIONS}
          // The reference service is a client-hosted deployment that serves search too (spec §1:
          // "configurable"); share, feedback and history need no switch, the service's /health
          // lists them. Every action of the panel is on, as on a real docs site.
          deployment="client-hosted"
          features={{ search: true }}
          support={SUPPORT}
        />
      ) : (
        <p className="site-warning" role="status">
          The assistant is not configured: start this site with <code>npm start</code>, which serves the
          reference service beside it.
        </p>
      )}
    </div>
  );
}

const container = document.getElementById('app');
if (!container) throw new Error('demo: #app is missing from index.html');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
