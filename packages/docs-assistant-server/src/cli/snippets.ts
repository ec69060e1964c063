/**
 * What `serve` prints once it listens, past its URL: the domain and keys with where they come from,
 * and the lines a site owner pastes into a page (script tag) or a React app to talk to this very
 * service, so nothing has to be guessed or copied from two places (issue 36).
 */

export interface ServeSnippetInput {
  /** The service's address as printed (`http://127.0.0.1:8787`). */
  url: string;
  domain: string;
  assistantKey: string;
  /** True when no `--assistant-key` was given: the key is new at every start. */
  assistantKeyRandom: boolean;
  adminKey: string;
  adminKeyRandom: boolean;
}

/** Where the recipes per docs framework live, as readers of a terminal can open them. */
export const RECIPES_URL = 'https://github.com/docs-assistant/docs-assistant/tree/main/docs/recipes';

/**
 * A JavaScript string literal that is also safe inside an HTML `<script>` (no `</script>` can close
 * it early): the values are the operator's own, but a pasted snippet must not break the page.
 */
function jsString(value: string): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** A JSX attribute value: a plain string when it can be one, an expression otherwise. */
function jsxValue(value: string): string {
  return /^[^"{}<>&\\]*$/.test(value) ? `"${value}"` : `{${jsString(value)}}`;
}

/**
 * The address a browser on this machine reaches: a wildcard address (`0.0.0.0`, `[::]`) is where
 * the service listens, not a place a page can call.
 */
export function browserUrl(url: string): string {
  return url.replace(/^http:\/\/(0\.0\.0\.0|\[::\])(?=:\d+$)/, (_all, host: string) =>
    host === '0.0.0.0' ? 'http://127.0.0.1' : 'http://[::1]',
  );
}

/** The domain and key lines, each saying how to change or keep the value. */
export function identityLines(input: ServeSnippetInput): string[] {
  const keep = (flag: string, key: string) =>
    `random this run: pass ${flag} ${key} to keep it across restarts`;
  return [
    `  Domain:        ${input.domain} (the widget's domain; --domain <name> sets it)`,
    `  Assistant key: ${input.assistantKey} (public, for the widget; ${
      input.assistantKeyRandom ? keep('--assistant-key', input.assistantKey) : 'from --assistant-key'
    })`,
    `  Admin key:     ${input.adminKey} (secret: server-side only; ${
      input.adminKeyRandom ? keep('--admin-key', input.adminKey) : 'from --admin-key'
    })`,
  ];
}

/** The ready-to-paste snippets: a script tag for any page, and the React component. */
export function snippetLines(input: ServeSnippetInput): string[] {
  const base = browserUrl(input.url);
  const options = `{ domain: ${jsString(input.domain)}, apiKey: ${jsString(input.assistantKey)}, baseUrl: ${jsString(base)} }`;
  const lines = [
    '',
    'Any page, nothing to install on the site: paste into its <head> (VitePress: the `head` config;',
    'Docusaurus: `headTags`; Starlight: `head`; MkDocs: a theme override), or before </body>:',
    '',
    '  <script type="module">',
    `    import { DocsAssistant } from ${jsString(`${base}/embed.js`)};`,
    `    DocsAssistant.init(${options});`,
    '  </script>',
    '',
    'A React app (npm install docs-assistant):',
    '',
    "  import { DocsAssistant } from 'docs-assistant';",
    "  import 'docs-assistant/styles.css';",
    `  <DocsAssistant domain=${jsxValue(input.domain)} apiKey=${jsxValue(input.assistantKey)} baseUrl=${jsxValue(base)} />`,
    '',
  ];
  if (input.assistantKeyRandom) {
    lines.push(
      `The key in them is new at every start: restart with --assistant-key ${input.assistantKey} and they stay valid.`,
    );
  }
  // Last, as the line that tells a reader of the output (and the tests) that all is printed.
  lines.push(`Recipes for Docusaurus, VitePress, Starlight, MkDocs and plain HTML: ${RECIPES_URL}`);
  return lines;
}
