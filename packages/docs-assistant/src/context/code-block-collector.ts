/**
 * Adds an "Ask AI" button to every code block of the page (outside the widget), including blocks
 * that appear later (client-side navigation), that adds the block's code as a `code` context item.
 */
import type { Context } from '../protocol/index.js';
import {
  checkOptions,
  createScheduler,
  isWidgetNode,
  nearestElementId,
  pagePath,
  resolveDocument,
  WIDGET_ATTRIBUTE,
} from './dom.js';
import type { Collector } from './selection-collector.js';

/** The code blocks enhanced when no selector is given. */
export const DEFAULT_CODE_BLOCK_SELECTOR = 'pre';

export interface CodeBlockCollectorOptions {
  /** The document to enhance. @default the global `document` */
  root?: Document;
  /** CSS selector of the code blocks. A match inside another match is left to the outer one. @default 'pre' */
  selector?: string;
  /**
   * Whether a node belongs to the widget; its code blocks (answers contain `pre`) get no button.
   * Elements marked `data-docs-assistant` always count as the widget's.
   * @default () => false
   */
  isInsideWidget?: (node: Node) => boolean;
  /** Receives the `code` context item when the reader clicks a block's button. */
  onAsk: (context: Context) => void;
  /** The button's text, e.g. `labels.askAi`. */
  label: string;
  /** The button's accessible name, e.g. `labels.askAiAboutCode`. @default `${label} about this code` */
  accessibleLabel?: string;
}

interface Enhanced {
  button: HTMLButtonElement;
  /** The block's inline `position` before it was made `relative`; undefined when left alone. */
  restorePosition?: { value: string; hadStyle: boolean };
}

/** The block's code, without the text of buttons put into it (ours or the widget's). */
function codeText(block: Element): string {
  const doc = block.ownerDocument;
  // 4 = NodeFilter.SHOW_TEXT; the global NodeFilter is missing in some server DOMs.
  const walker = doc.createTreeWalker(block, 4);
  let text = '';
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement?.closest(`[${WIDGET_ATTRIBUTE}]`)) text += node.nodeValue ?? '';
  }
  // Leading blank lines and trailing whitespace are markup artefacts; indentation is code.
  return text.replace(/^(?:[ \t]*\n)+/, '').trimEnd();
}

function assertSelector(doc: Document, selector: unknown): string {
  if (typeof selector !== 'string' || selector.trim() === '') {
    throw new TypeError(
      'createCodeBlockCollector: `selector` must be a non-empty CSS selector such as "pre" or ".docs pre".',
    );
  }
  try {
    doc.createDocumentFragment().querySelector(selector);
  } catch (error) {
    throw new SyntaxError(
      `createCodeBlockCollector: "${selector}" is not a valid CSS selector (${(error as Error).message}); pass one such as "pre" or ".docs pre".`,
    );
  }
  return selector;
}

/** Adds "Ask AI" buttons to the page's code blocks and keeps adding them to new ones. */
export function createCodeBlockCollector(options: CodeBlockCollectorOptions): Collector {
  checkOptions('createCodeBlockCollector', options);
  const doc = resolveDocument(options.root, 'createCodeBlockCollector');
  const selector = assertSelector(doc, options.selector ?? DEFAULT_CODE_BLOCK_SELECTOR);
  const { onAsk, label } = options;
  const accessibleLabel = options.accessibleLabel || `${label} about this code`;
  const insideWidget = options.isInsideWidget ?? (() => false);
  const enhanced = new Map<Element, Enhanced>();
  let destroyed = false;

  const isOwnButton = (node: Node) =>
    node.nodeType === 1 && (node as Element).getAttribute(WIDGET_ATTRIBUTE) === 'ask-code';

  const createButton = (block: Element) => {
    const button = doc.createElement('button');
    button.type = 'button';
    button.setAttribute(WIDGET_ATTRIBUTE, 'ask-code');
    button.setAttribute('aria-label', accessibleLabel);
    button.textContent = label;
    // Pinned to the block's top corner at the end of its lines (the right in left-to-right pages, the
    // left in right-to-left ones); the inset is themable, the rest is in collectors.css.
    button.style.position = 'absolute';
    button.style.setProperty('inset-block-start', 'var(--da-ask-code-inset, 0.5em)');
    button.style.setProperty('inset-inline-end', 'var(--da-ask-code-inset, 0.5em)');
    // Keeps "Ask AI" out of the code when the reader selects and copies the block.
    button.style.setProperty('user-select', 'none');
    button.addEventListener('click', () => {
      const value = codeText(block);
      if (!value.trim()) return;
      const path = pagePath(doc);
      const elementId = nearestElementId(block);
      onAsk({ type: 'code', value, ...(path ? { path } : {}), ...(elementId ? { elementId } : {}) });
    });
    return button;
  };

  const scan = () => {
    if (destroyed) return;
    for (const block of enhanced.keys()) {
      if (!block.isConnected) enhanced.delete(block);
    }
    const fresh: HTMLElement[] = [];
    for (const block of doc.querySelectorAll<HTMLElement>(selector)) {
      const known = enhanced.get(block);
      if (known) {
        // The host re-rendered the block's content and took our button with it.
        if (known.button.parentNode !== block) block.append(known.button);
        continue;
      }
      if (isWidgetNode(block, insideWidget)) continue;
      if (block.parentElement?.closest(selector)) continue;
      fresh.push(block);
    }
    // Read every position before writing any, so a page of many blocks costs one style pass.
    const view = doc.defaultView;
    const isStatic = fresh.map((block) => {
      const position = view?.getComputedStyle(block).position;
      return !position || position === 'static';
    });
    fresh.forEach((block, index) => {
      const record: Enhanced = { button: createButton(block) };
      if (isStatic[index] && block.style) {
        record.restorePosition = { value: block.style.position, hadStyle: block.hasAttribute('style') };
        block.style.position = 'relative';
      }
      enhanced.set(block, record);
      block.append(record.button);
    });
  };

  const scheduler = createScheduler(doc, scan);
  const MutationObserverImpl = doc.defaultView?.MutationObserver ?? globalThis.MutationObserver;
  // The callback only decides whether a scan is due; the scan itself runs once per frame.
  const observer = MutationObserverImpl
    ? new MutationObserverImpl((records) => {
        for (const record of records) {
          const relevant =
            record.addedNodes.length > 0
              ? !Array.prototype.every.call(record.addedNodes, isOwnButton) &&
                !isWidgetNode(record.target, insideWidget)
              : Array.prototype.some.call(record.removedNodes, isOwnButton);
          if (relevant) {
            scheduler.request();
            return;
          }
        }
      })
    : null;

  scan();
  observer?.observe(doc.documentElement, { childList: true, subtree: true });

  return {
    destroy() {
      if (destroyed) return;
      destroyed = true;
      observer?.disconnect();
      scheduler.cancel();
      for (const [block, { button, restorePosition }] of enhanced) {
        button.remove();
        if (restorePosition) {
          const el = block as HTMLElement;
          el.style.position = restorePosition.value;
          if (!restorePosition.hadStyle && el.getAttribute('style') === '') el.removeAttribute('style');
        }
      }
      enhanced.clear();
    },
  };
}
