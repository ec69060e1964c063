/**
 * `?assistant` opens the panel on load and `?assistant=How+do+I+deploy` asks that question, so a
 * link from anywhere (a support reply, a search page) lands in the assistant. Once per page load;
 * the parameter is then taken out of the address, so a reload does not ask again. Off with
 * `urlParameter: false` (`url-parameter="false"`), or renamed with a string.
 */
import type { EmbedConfig } from './config.js';

interface Opener {
  open(options: { source: 'url' }): Promise<void>;
  ask(question: string, options: { source: 'url' }): Promise<void>;
}

let done = false;

export function applyUrlParameter(api: Opener, config: EmbedConfig | undefined): void {
  if (done || !config) return;
  done = true;
  const name = config.urlParameter ?? 'assistant';
  if (name === false || typeof location === 'undefined') return;
  const url = new URL(location.href);
  const value = url.searchParams.get(name);
  if (value === null) return;
  url.searchParams.delete(name);
  try {
    history.replaceState(history.state, '', url);
  } catch {
    // A sandboxed or opaque-origin page may refuse; the parameter then stays in the address.
  }
  const question = value.trim();
  const report = (error: unknown) => console.error(error);
  if (question) api.ask(question, { source: 'url' }).catch(report);
  else api.open({ source: 'url' }).catch(report);
}
