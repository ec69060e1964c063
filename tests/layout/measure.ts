/**
 * What a reader sees of the widget, read in the page in one call: the open panel's box, its title's
 * lines, and every visible interactive control with the part of it a reader can see and whether a
 * click on its centre lands on it. `measureWidget` runs in the browser (serialised with
 * `toString`, so it imports nothing and names no outer value); it starts from the document and
 * walks into open shadow roots, or from a closed shadow root handed to it by the DevTools protocol.
 */

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface Control {
  /** How a report names it: its `data-action`, else its `data-docs-assistant` hook, else its role and name. */
  name: string;
  action: string | null;
  hook: string | null;
  role: string;
  /** The part a reader can see: its box cut by the lists it scrolls in. */
  box: Box;
  /** Inside the panel (false: the launcher). */
  inPanel: boolean;
  inHeader: boolean;
  /** Index (in `controls`) of the control this one sits in (a button in a link), else null. */
  within: number | null;
  /** `aria-haspopup`: `menu` for the header's "More" button. */
  popup: string | null;
  /** A click at the centre of `box` reaches this control (not something drawn over it). */
  hit: boolean;
  /** What a click at its centre lands on instead is an open menu (a popup over the content). */
  underMenu: boolean;
  /** Its whole box, before any scrolling list cuts it (its size as a target, its place in a row). */
  whole: Box;
  /** Laid out as text (a link in a sentence): WCAG's inline exception to the target size. */
  inline: boolean;
  /** The row of actions it sits in (`header`, `message-actions#2`), else null: one baseline each. */
  row: string | null;
}

export interface Measurement {
  viewport: { width: number; height: number };
  /** The root's `data-status` (`ready`, `submitted`, `streaming`, `error`). */
  status: string | null;
  /** The open panel's box; null while no panel is open. */
  panel: Box | null;
  /** Lines of the panel's title as laid out; 0 when there is none. */
  titleLines: number;
  /** Every visible interactive control of the widget (the panel's and the launcher). */
  controls: Control[];
  /** `data-docs-assistant` hooks of the views and states on screen (history, search, error, menu…). */
  shown: string[];
  /** Assistant messages in the conversation, and the last one's text (to tell a stream that has started). */
  answers: number;
  answerText: string;
  /** The seen part of each message of the conversation, and of each error banner outside them. */
  messages: Box[];
  errors: Box[];
  /** Each open "More" menu: its box and the lines each item's label takes (one, unless cramped). */
  menus: { box: Box; items: { name: string; lines: number }[] }[];
}

/** Runs in the page. `scope`: the document, or a closed shadow root. */
export function measureWidget(scope: Document | ShadowRoot): Measurement {
  const trees: (Document | ShadowRoot | Element)[] = [];
  const collect = (tree: Document | ShadowRoot) => {
    trees.push(tree);
    for (const element of tree.querySelectorAll('*')) if (element.shadowRoot) collect(element.shadowRoot);
  };
  collect(scope);
  const find = (selector: string): Element[] => trees.flatMap((tree) => [...tree.querySelectorAll(selector)]);
  const boxOf = (rect: DOMRect): Box => ({
    left: rect.left,
    top: rect.top,
    right: rect.right,
    bottom: rect.bottom,
  });
  const parentOf = (element: Element): Element | null =>
    element.parentElement ?? ((element.getRootNode() as ShadowRoot).host || null);
  const visible = (element: Element): boolean =>
    element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });

  const root = find('[data-docs-assistant="root"]')[0];
  const viewport = { width: innerWidth, height: innerHeight };
  const empty: Measurement = {
    viewport,
    status: null,
    panel: null,
    titleLines: 0,
    controls: [],
    shown: [],
    answers: 0,
    answerText: '',
    messages: [],
    errors: [],
    menus: [],
  };
  if (!root) return empty;
  const panelElement = find('[data-docs-assistant="panel"]').find(
    (element) => element.getAttribute('data-state') === 'open' && visible(element),
  );
  const header = panelElement?.querySelector('[data-docs-assistant="header"]') ?? null;

  // A control scrolled out of a list is not on screen; one cut by a box that does not scroll is
  // cut off, and counts where its whole box is.
  const seenPart = (element: Element): Box | null => {
    const box = boxOf(element.getBoundingClientRect());
    for (let up = parentOf(element); up && up !== root; up = parentOf(up)) {
      const style = getComputedStyle(up);
      const scrolls = /auto|scroll/.test(`${style.overflowX} ${style.overflowY}`);
      if (!scrolls) continue;
      const outer = up.getBoundingClientRect();
      const left = outer.left + up.clientLeft;
      const top = outer.top + up.clientTop;
      box.left = Math.max(box.left, left);
      box.top = Math.max(box.top, top);
      box.right = Math.min(box.right, left + up.clientWidth);
      box.bottom = Math.min(box.bottom, top + up.clientHeight);
      // A sliver under 2 px is the list's edge rounded (clientHeight is whole pixels, boxes are
      // not): nothing a reader sees or aims at, and a click there lands on the list's edge.
      if (box.right - box.left < 2 || box.bottom - box.top < 2) return null;
    }
    return box;
  };

  // Behind a modal panel the page (the launcher too) is out of a reader's reach, and meant to be.
  const modal = panelElement?.getAttribute('aria-modal') === 'true';
  const INTERACTIVE =
    'a[href], button, input:not([type="hidden"]), textarea, select, summary, [data-action], ' +
    '[role="button"], [role="link"], [role="menuitem"], [role="menuitemradio"], [role="menuitemcheckbox"], ' +
    '[role="tab"], [role="option"], [role="switch"], [role="checkbox"], [tabindex]:not([tabindex="-1"])';
  const controls: Control[] = [];
  const elements: Element[] = [];
  // A row of actions: the header, an answer's actions. Wrappers of a row's buttons (the "More"
  // button's anchor, the feedback votes) are part of it; any other hook on the way up ends the row.
  const ROWS = ['header', 'message-actions'];
  const PASS_THROUGH = ['menu-anchor', 'feedback'];
  const rowElements: Element[] = [];
  const rowOf = (element: Element): string | null => {
    for (let up = parentOf(element); up && up !== root; up = parentOf(up)) {
      const hook = up.getAttribute('data-docs-assistant');
      if (!hook || PASS_THROUGH.includes(hook)) continue;
      if (!ROWS.includes(hook)) return null;
      if (!rowElements.includes(up)) rowElements.push(up);
      return `${hook}#${rowElements.indexOf(up)}`;
    }
    return null;
  };
  const openMenus = find('[role="menu"]').filter(visible);
  for (const element of root.querySelectorAll(INTERACTIVE)) {
    if (!visible(element) || (modal && !panelElement.contains(element))) continue;
    const whole = element.getBoundingClientRect();
    // Visually hidden (a file input inside its label, a skip link): not something a reader sees.
    if (whole.width <= 1 || whole.height <= 1) continue;
    const box = seenPart(element);
    if (!box) continue;
    const x = (box.left + box.right) / 2;
    const y = (box.top + box.bottom) / 2;
    const tree = element.getRootNode() as Document | ShadowRoot;
    const at = x >= 0 && y >= 0 && x < innerWidth && y < innerHeight ? tree.elementFromPoint(x, y) : null;
    const action = element.getAttribute('data-action');
    const hook = element.getAttribute('data-docs-assistant');
    const role = element.getAttribute('role') ?? element.tagName.toLowerCase();
    const label = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40);
    let within: number | null = null;
    for (let up = parentOf(element); up && up !== root && within === null; up = parentOf(up)) {
      const index = elements.indexOf(up);
      if (index >= 0) within = index;
    }
    elements.push(element);
    controls.push({
      name: action ?? hook ?? `${role} "${label}"`,
      action,
      hook,
      role,
      box,
      inPanel: !!panelElement?.contains(element),
      inHeader: !!header?.contains(element),
      within,
      popup: element.getAttribute('aria-haspopup'),
      hit: !!at && (at === element || element.contains(at)),
      underMenu: !!at && openMenus.some((menu) => menu.contains(at) && !menu.contains(element)),
      whole: boxOf(whole),
      inline: getComputedStyle(element).display === 'inline',
      row: rowOf(element),
    });
  }

  // Lines of text as laid out: the distinct tops of its text's boxes (text only: an icon's shapes
  // have boxes of their own at other heights).
  const linesOf = (element: Element): number => {
    const tops = new Set<number>();
    const texts = document.createTreeWalker(element, 4 /* NodeFilter.SHOW_TEXT */);
    for (let text = texts.nextNode(); text; text = texts.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(text);
      for (const rect of range.getClientRects()) if (rect.width > 0) tops.add(Math.round(rect.top));
    }
    return tops.size;
  };
  const title = panelElement?.querySelector('[data-docs-assistant="title"]');
  const titleLines = title && visible(title) ? linesOf(title) : 0;
  const menus = openMenus.map((menu) => ({
    box: boxOf(menu.getBoundingClientRect()),
    items: [...menu.querySelectorAll('[role^="menuitem"]')].map((item) => ({
      name: item.getAttribute('data-action') ?? (item.textContent ?? '').trim().slice(0, 40),
      lines: linesOf(item),
    })),
  }));

  const shown = new Set<string>();
  for (const element of root.querySelectorAll('[data-docs-assistant]')) {
    const hook = element.getAttribute('data-docs-assistant')!;
    if (visible(element)) shown.add(hook);
  }
  for (const menu of root.querySelectorAll('[role="menu"]')) if (visible(menu)) shown.add('role=menu');
  const answers = root.querySelectorAll('[data-docs-assistant="message"][data-role="assistant"]');
  const seenOf = (selector: string, keep: (element: Element) => boolean = () => true) =>
    [...root.querySelectorAll(selector)]
      .filter((element) => visible(element) && keep(element))
      .map(seenPart)
      .filter((box): box is Box => box !== null);
  return {
    viewport,
    status: root.getAttribute('data-status'),
    panel: panelElement ? boxOf(panelElement.getBoundingClientRect()) : null,
    titleLines,
    controls,
    shown: [...shown].sort(),
    answers: answers.length,
    answerText: answers[answers.length - 1]?.textContent ?? '',
    messages: seenOf('[data-docs-assistant="message"]'),
    errors: seenOf(
      '[data-docs-assistant="error"]',
      (element) => !element.closest('[data-docs-assistant="message"]'),
    ),
    menus,
  };
}
