/**
 * The one piece of `document` the Markdown worker needs. micromark decodes named character
 * references (`&copy;`) with `decode-named-character-reference`, whose browser build (the one a
 * host's bundler picks for a worker too) sets them as an element's `innerHTML` and reads its
 * `textContent`; a worker has no `document`, so that build throws as it loads. This gives it that
 * element, decoding from `character-entities`, the table the package's other build looks names up
 * in, so both builds give the same result: the character, or the reference unchanged (not a name).
 */
import { characterEntities } from 'character-entities';

if (typeof document === 'undefined') {
  let text = '';
  const element = {
    set innerHTML(html: string) {
      // `&name;`
      const name = html.slice(1, -1);
      text = Object.hasOwn(characterEntities, name) ? characterEntities[name]! : html;
    },
    get textContent() {
      return text;
    },
  };
  (globalThis as { document?: unknown }).document = { createElement: () => element };
}
