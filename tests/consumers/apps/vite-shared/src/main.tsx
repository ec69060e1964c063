// A docs page built with Vite that installs docs-assistant from its tarball. The service's URL,
// key and domain come from the query string at run time, so one production build serves any run.
import { DocsAssistant } from 'docs-assistant';
import 'docs-assistant/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// The page's own script, independent of the widget.
const counter = document.getElementById('page-counter') as HTMLButtonElement;
let clicks = 0;
counter.addEventListener('click', () => {
  clicks += 1;
  counter.textContent = `Clicked ${clicks} times`;
});

const params = new URLSearchParams(window.location.search);
const baseUrl = params.get('service');
const apiKey = params.get('key');
const domain = params.get('domain');

if (baseUrl && apiKey && domain) {
  createRoot(document.getElementById('assistant') as HTMLElement).render(
    <StrictMode>
      <DocsAssistant domain={domain} apiKey={apiKey} baseUrl={baseUrl} />
    </StrictMode>,
  );
} else {
  const error = document.getElementById('config-error') as HTMLElement;
  error.hidden = false;
  error.textContent = 'Open this page with ?service=<url>&key=<assistant key>&domain=<domain>.';
}
