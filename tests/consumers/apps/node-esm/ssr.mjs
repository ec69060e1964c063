// Server-side rendering of the installed widget with react-dom/server, as a Node SSR host does.
import { DocsAssistant } from 'docs-assistant';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';

const html = renderToString(
  createElement(DocsAssistant, {
    domain: 'acme',
    apiKey: 'svc_dsc_ssr_example',
    baseUrl: 'http://127.0.0.1:1',
  }),
);
console.log(html);
