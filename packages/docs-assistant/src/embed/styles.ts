/**
 * The widget's stylesheet inside its shadow root. A `<style>` carrying the page's CSP nonce; when
 * a strict policy blocks it anyway (no nonce, or the wrong one), the console says what to pass and
 * the rules are adopted as a constructed stylesheet instead, which CSP does not govern, so the
 * widget still looks right.
 *
 * The host page reaches a shadow tree only through inheritance and through rules on the host
 * element itself; `:host { all: initial !important }` cuts both (an inner `!important` beats the
 * page's, even a `* { … !important }`), so the widget starts from the CSS initial values
 * whatever the page sets. Custom properties (`--da-*`) are not part of `all`: a page can still theme
 * the widget with them. `rem` would follow the page's `html { font-size }`; the embed build turns
 * the widget's `rem` into `px` (1rem = 16px, see vite.embed.config.ts).
 */
import widgetCss from '../styles/docs-assistant.css?inline';

const HOST_CSS =
  ':host{all:initial!important;display:block!important}:host([hidden]){display:none!important}';

// docs-assistant.css imports the collectors' buttons' styles (they live in the widget's root).
export const EMBED_CSS = `${HOST_CSS}\n${widgetCss}`;

let warned = false;

/** Puts the stylesheet into `root`; returns what removes it. */
export function installStyles(root: ShadowRoot, nonce: string | undefined): () => void {
  const doc = root.ownerDocument;
  const style = doc.createElement('style');
  if (nonce) {
    // The attribute for the policy check (Chromium then hides it from the DOM); the property too.
    style.setAttribute('nonce', nonce);
    style.nonce = nonce;
  }
  style.setAttribute('data-docs-assistant', 'styles');
  style.textContent = EMBED_CSS;
  root.prepend(style);
  // A style element the page's CSP refused has no rules (Chromium gives it no sheet at all).
  if (style.sheet && style.sheet.cssRules.length > 0) return () => style.remove();

  const win = doc.defaultView;
  if (!warned) {
    warned = true;
    console.error(
      nonce
        ? `docs-assistant: this page's Content-Security-Policy refused the widget's <style> with the nonce "${nonce}". Pass the nonce the policy's style-src lists ('nonce-…'), the same on every page load.`
        : `docs-assistant: this page's Content-Security-Policy refused the widget's <style>. Pass the page's nonce: DocsAssistant.init({ …, nonce }) or <docs-assistant nonce="…">, with style-src 'nonce-…' in the policy.`,
    );
  }
  if (!win || !('adoptedStyleSheets' in root)) return () => style.remove();
  const sheet = new win.CSSStyleSheet();
  sheet.replaceSync(EMBED_CSS);
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  return () => {
    style.remove();
    root.adoptedStyleSheets = root.adoptedStyleSheets.filter((item) => item !== sheet);
  };
}
