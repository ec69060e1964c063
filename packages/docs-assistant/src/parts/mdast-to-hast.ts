/**
 * The Markdown tree (mdast) to the HTML tree (hast) the renderer turns into elements
 * (`render-markdown.tsx`): what mdast-util-to-hast does with `allowDangerousHtml`, for the nodes
 * the GFM parser makes, in one small walk. That package's general machinery (handler tables,
 * `data.hName`/`hProperties`, pass-through nodes, `structuredClone`) and its footnote section are
 * left out: the widget lists an answer's footnotes itself (`markdown.tsx`). Raw HTML becomes text,
 * never elements. `tests/parts/markdown-walker.test.tsx` holds the output to what
 * mdast-util-to-hast rendered.
 */
import type { Element, ElementContent, Properties, Root, Text } from 'hast';
import type {
  Code,
  Definition,
  FootnoteReference,
  ImageReference,
  LinkReference,
  List,
  ListItem,
  Root as MdastRoot,
  Nodes,
  Parents,
  Table,
} from 'mdast';
import { normalizeUri } from 'micromark-util-sanitize-uri';
import { trimLines } from 'trim-lines';

type Content = ElementContent;

interface State {
  definitions: Map<string, Definition>;
  /** Footnote ids (upper case) in the order first called. */
  order: string[];
  /** Calls per footnote id. */
  calls: Map<string, number>;
}

const text = (value: string): Text => ({ type: 'text', value });

function element(tagName: string, properties: Properties, children: Content[], from?: Nodes): Element {
  const result: Element = { type: 'element', tagName, properties, children };
  if (from?.position) result.position = from.position;
  return result;
}

/** Line endings between nodes, and around them when `loose`. */
function wrap(nodes: Content[], loose?: boolean): Content[] {
  const result: Content[] = loose ? [text('\n')] : [];
  nodes.forEach((node, index) => {
    if (index) result.push(text('\n'));
    result.push(node);
  });
  if (loose && nodes.length > 0) result.push(text('\n'));
  return result;
}

const trimStart = (value: string) => value.replace(/^[ \t]+/, '');

function all(state: State, parent: Parents): Content[] {
  const values: Content[] = [];
  const nodes = parent.children as Nodes[];
  nodes.forEach((node, index) => {
    const result = one(state, node, parent);
    // After a hard break, the next line's leading spaces go.
    if (index && nodes[index - 1]!.type === 'break' && result && !Array.isArray(result)) {
      const head = result.type === 'element' ? result.children[0] : result;
      if (head?.type === 'text') head.value = trimStart(head.value);
    }
    if (Array.isArray(result)) values.push(...result);
    else if (result) values.push(result);
  });
  return values;
}

const identifier = (node: { identifier: string }) => String(node.identifier).toUpperCase();

/** A reference without a definition: its source text back. */
function revert(state: State, node: LinkReference | ImageReference): Content[] {
  const kind = node.referenceType;
  const suffix = `]${kind === 'collapsed' ? '[]' : kind === 'full' ? `[${node.label || node.identifier}]` : ''}`;
  if (node.type === 'imageReference') return [text(`![${node.alt}${suffix}`)];
  const contents = all(state, node);
  const head = contents[0];
  if (head?.type === 'text') head.value = `[${head.value}`;
  else contents.unshift(text('['));
  const tail = contents[contents.length - 1];
  if (tail?.type === 'text') tail.value += suffix;
  else contents.push(text(suffix));
  return contents;
}

const listItemLoose = (node: ListItem) => node.spread ?? node.children.length > 1;
const listLoose = (node: List) => Boolean(node.spread) || node.children.some(listItemLoose);

function listItem(state: State, node: ListItem, parent: Parents | undefined): Element {
  const results = all(state, node);
  const loose = parent?.type === 'list' ? listLoose(parent) : parent ? false : listItemLoose(node);
  const properties: Properties = {};
  const children: Content[] = [];
  if (typeof node.checked === 'boolean') {
    let paragraph = results[0];
    if (!(paragraph?.type === 'element' && paragraph.tagName === 'p')) {
      paragraph = element('p', {}, []);
      results.unshift(paragraph);
    }
    if (paragraph.children.length > 0) paragraph.children.unshift(text(' '));
    paragraph.children.unshift(
      element('input', { type: 'checkbox', checked: node.checked, disabled: true }, []),
    );
    properties.className = ['task-list-item'];
  }
  results.forEach((child, index) => {
    const paragraph = child.type === 'element' && child.tagName === 'p';
    if (loose || index !== 0 || !paragraph) children.push(text('\n'));
    if (paragraph && !loose) children.push(...child.children);
    else children.push(child);
  });
  const tail = results[results.length - 1];
  if (tail && (loose || tail.type !== 'element' || tail.tagName !== 'p')) children.push(text('\n'));
  return element('li', properties, children, node);
}

function table(state: State, node: Table): Element {
  const rows = node.children.map((row, rowIndex) => {
    const cells: Element[] = [];
    const length = node.align ? node.align.length : row.children.length;
    for (let index = 0; index < length; index++) {
      const cell = row.children[index];
      const align = node.align?.[index];
      cells.push(element(rowIndex ? 'td' : 'th', align ? { align } : {}, cell ? all(state, cell) : [], cell));
    }
    return element('tr', {}, wrap(cells, true), row);
  });
  const content: Element[] = [];
  const head = rows.shift();
  if (head) content.push(element('thead', {}, wrap([head], true), node.children[0]));
  if (rows.length > 0) {
    const body = element('tbody', {}, wrap(rows, true));
    const start = node.children[1]?.position?.start;
    const end = node.children[node.children.length - 1]?.position?.end;
    if (start && end) body.position = { start, end };
    content.push(body);
  }
  return element('table', {}, wrap(content, true), node);
}

function footnoteReference(state: State, node: FootnoteReference): Element {
  const id = identifier(node);
  const safeId = normalizeUri(id.toLowerCase());
  const calls = (state.calls.get(id) ?? 0) + 1;
  if (calls === 1) state.order.push(id);
  state.calls.set(id, calls);
  const link = element(
    'a',
    {
      href: `#user-content-fn-${safeId}`,
      id: `user-content-fnref-${safeId}${calls > 1 ? `-${calls}` : ''}`,
      dataFootnoteRef: true,
      ariaDescribedBy: ['footnote-label'],
    },
    [text(String(state.order.indexOf(id) + 1))],
    node,
  );
  return element('sup', {}, [link], node);
}

/** A fenced or indented code block: `pre > code`, the first word of its info string as its language class. */
function code(node: Code): Element {
  const language = node.lang ? node.lang.split(/\s+/) : [];
  const child = element(
    'code',
    language.length > 0 ? { className: [`language-${language[0]}`] } : {},
    [text(node.value ? `${node.value}\n` : '')],
    node,
  );
  return element('pre', {}, [child], node);
}

/** A list: `ol` (with its `start` unless 1) or `ul`, marked `contains-task-list` when an item is a task. */
function list(state: State, node: List): Element {
  const results = all(state, node);
  const properties: Properties = {};
  if (typeof node.start === 'number' && node.start !== 1) properties.start = node.start;
  if (
    results.some(
      (child) =>
        child.type === 'element' &&
        (child.properties.className as string[] | undefined)?.[0] === 'task-list-item',
    )
  ) {
    properties.className = ['contains-task-list'];
  }
  return element(node.ordered ? 'ol' : 'ul', properties, wrap(results, true), node);
}

function one(state: State, node: Nodes, parent?: Parents): Content | Content[] | undefined {
  switch (node.type) {
    case 'blockquote':
      return element('blockquote', {}, wrap(all(state, node), true), node);
    case 'break':
      return [element('br', {}, [], node), text('\n')];
    case 'code':
      return code(node);
    case 'delete':
      return element('del', {}, all(state, node), node);
    case 'emphasis':
      return element('em', {}, all(state, node), node);
    case 'strong':
      return element('strong', {}, all(state, node), node);
    case 'paragraph':
      return element('p', {}, all(state, node), node);
    case 'heading':
      return element(`h${node.depth}`, {}, all(state, node), node);
    case 'footnoteReference':
      return footnoteReference(state, node);
    // Raw HTML: shown as its text, never parsed.
    case 'html':
      return text(node.value);
    case 'image':
    case 'imageReference':
    case 'link':
    case 'linkReference': {
      // The URL and title are the node's own, or its definition's (a reference to none stays text).
      const own = node.type === 'image' || node.type === 'link';
      const definition = own ? node : state.definitions.get(identifier(node));
      if (!definition) return revert(state, node as LinkReference | ImageReference);
      const link = node.type === 'link' || node.type === 'linkReference';
      const properties: Properties = { [link ? 'href' : 'src']: normalizeUri(definition.url || '') };
      if (!link && node.alt != null) properties.alt = node.alt;
      if (definition.title != null) properties.title = definition.title;
      return link ? element('a', properties, all(state, node), node) : element('img', properties, [], node);
    }
    case 'inlineCode':
      return element('code', {}, [text(node.value.replace(/\r?\n|\r/g, ' '))], node);
    case 'list':
      return list(state, node);
    case 'listItem':
      return listItem(state, node, parent);
    case 'table':
      return table(state, node);
    case 'text':
      return text(trimLines(String(node.value)));
    case 'thematicBreak':
      return element('hr', {}, [], node);
    case 'definition':
    case 'footnoteDefinition':
    case 'yaml':
      return undefined;
    default:
      // Anything else (a table row or cell outside a table): its text, or its children in a `div`.
      return 'value' in node
        ? text(String(node.value))
        : element('div', {}, 'children' in node ? all(state, node as Parents) : [], node);
  }
}

function collectDefinitions(node: Nodes, definitions: Map<string, Definition>) {
  if (node.type === 'definition') {
    const id = identifier(node);
    // The first definition of a label wins, as in CommonMark.
    if (!definitions.has(id)) definitions.set(id, node);
  }
  if ('children' in node) for (const child of node.children) collectDefinitions(child, definitions);
}

/**
 * The HTML tree of a Markdown tree. When footnotes are called, a line ending closes the root where
 * mdast-util-to-hast puts its footnote section (the widget renders that section itself).
 */
export function mdastToHast(tree: MdastRoot): Root {
  const state: State = { definitions: new Map(), order: [], calls: new Map() };
  collectDefinitions(tree, state.definitions);
  const children = wrap(all(state, tree));
  if (state.order.length > 0) children.push(text('\n'));
  const root: Root = { type: 'root', children };
  if (tree.position) root.position = tree.position;
  return root;
}
