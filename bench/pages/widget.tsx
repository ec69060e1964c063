/** The docs assistant as a host page embeds it (inline, so it is open), fed by the bench stream. */
import { DocsAssistant, type DocsAssistantHandle } from 'docs-assistant';
import 'docs-assistant/styles.css';
import { createRef } from 'react';
import { createRoot } from 'react-dom/client';
import { benchFetch, installBench } from './harness';

const handle = createRef<DocsAssistantHandle>();
createRoot(document.getElementById('root')!).render(
  <DocsAssistant
    ref={handle}
    variant="inline"
    domain="bench"
    apiKey="svc_dsc_bench"
    baseUrl={location.origin}
    storage="memory"
    collectors={false}
    fetch={benchFetch}
  />,
);

installBench(
  (question) => handle.current?.ask(question),
  (endMark) => {
    const root = document.querySelector('[data-docs-assistant="root"]');
    const answers = document.querySelectorAll('[data-docs-assistant="message"][data-role="assistant"]');
    return (
      root?.getAttribute('data-status') === 'ready' &&
      !!answers[answers.length - 1]?.textContent?.includes(endMark)
    );
  },
);
