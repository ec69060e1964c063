/**
 * The layout rules (checks.ts) and the ratchet (ratchet.ts) on measurements made up here, so each
 * rule is seen to fail on the defect it names and to pass on a sound layout.
 */
import { describe, expect, it } from 'vitest';
import { checkLayout, type Failure } from './checks';
import type { Box, Control, Measurement } from './measure';
import { compareWithKnown, formatKnownFailures, unknownKeys, withoutFixed } from './ratchet';

const box = (left: number, top: number, right: number, bottom: number): Box => ({ left, top, right, bottom });

function control(name: string, at: Box, extra: Partial<Control> = {}): Control {
  const inHeader = extra.inHeader ?? true;
  return {
    name,
    action: name,
    hook: null,
    role: 'button',
    box: at,
    inPanel: true,
    inHeader,
    within: null,
    popup: null,
    hit: true,
    underMenu: false,
    whole: extra.box ?? at,
    inline: false,
    row: inHeader ? 'header#0' : null,
    ...extra,
  };
}

/** A 400 px floating panel at the right of a 1280×800 viewport, its header in one row. */
function measurement(controls: Control[], extra: Partial<Measurement> = {}): Measurement {
  return {
    viewport: { width: 1280, height: 800 },
    status: 'ready',
    panel: box(864, 128, 1264, 728),
    titleLines: 1,
    controls,
    shown: [],
    answers: 0,
    answerText: '',
    messages: [],
    errors: [],
    menus: [],
    ...extra,
  };
}

const header = [
  control('history', box(1170, 140, 1200, 170)),
  control('more', box(1205, 140, 1235, 170), { popup: 'menu' }),
  control('close', box(1236, 140, 1260, 170)),
];
const floating = { closable: true, inFlow: false };
const checks = (failures: Failure[]) => failures.map((failure) => failure.check);

describe('the layout rules', () => {
  it('pass a header whose controls fit in one row with Close last', () => {
    expect(checkLayout(measurement(header), floating)).toEqual([]);
  });

  it('catch Close pushed past the panel and the viewport (issue 35: x=1273 in a panel ending at 1264)', () => {
    const pushed = [...header.slice(0, 2), control('close', box(1273, 140, 1301, 170))];
    const failures = checkLayout(measurement(pushed), floating);
    expect(checks(failures)).toEqual(['inside-panel', 'inside-viewport', 'close-visible']);
    expect(failures[0]!.detail).toBe('close at x 1273–1301, y 140–170, panel x 864–1264, y 128–728');
  });

  it('catch two controls drawn over each other, but not a button inside a link', () => {
    const crowded = [...header, control('share', box(1190, 140, 1220, 170))];
    expect(checks(checkLayout(measurement(crowded), floating))).toEqual(['overlap', 'overlap']);
    const nested = [...header, control('copy', box(1173, 143, 1197, 167), { within: 0, row: null })];
    expect(checkLayout(measurement(nested), floating)).toEqual([]);
  });

  it('catch a control a click cannot reach (drawn under something else)', () => {
    const covered = [header[0]!, header[1]!, control('close', header[2]!.box, { hit: false })];
    expect(checks(checkLayout(measurement(covered), floating))).toEqual(['covered', 'close-visible']);
  });

  it('catch a title on three lines, and a panel without a title', () => {
    expect(checks(checkLayout(measurement(header, { titleLines: 3 }), floating))).toEqual(['title-one-line']);
    expect(checkLayout(measurement(header, { titleLines: 0 }), floating)[0]!.detail).toBe(
      'no title is shown',
    );
  });

  it('ask for Close only where the panel can be closed', () => {
    const noClose = header.slice(0, 2);
    expect(checks(checkLayout(measurement(noClose), floating))).toEqual(['close-visible']);
    expect(checkLayout(measurement(noClose), { closable: false, inFlow: true })).toEqual([]);
  });

  it('let an inline panel run below the fold, never past the sides', () => {
    const low = [control('send', box(900, 780, 940, 840), { inHeader: false })];
    const tall = { panel: box(864, 128, 1264, 900) };
    const inline = { closable: false, inFlow: true };
    expect(checkLayout(measurement(low, tall), inline)).toEqual([]);
    expect(checks(checkLayout(measurement(low, tall), floating))).toEqual([
      'inside-viewport',
      'close-visible',
    ]);
    const wide = [control('send', box(1250, 500, 1290, 540), { inHeader: false })];
    expect(checks(checkLayout(measurement(wide, tall), inline))).toEqual(['inside-panel', 'inside-viewport']);
  });

  it('catch an action smaller than 24×24 px, except a link in a sentence', () => {
    const small = control('copy', box(900, 300, 926, 320), { inHeader: false });
    const failures = checkLayout(measurement([...header, small]), floating);
    expect(checks(failures)).toEqual(['target-size']);
    expect(failures[0]!.detail).toBe('copy is 26×20 px (at least 24×24)');
    const link = control('a "Theming"', box(900, 300, 950, 318), { inHeader: false, inline: true });
    expect(checkLayout(measurement([...header, link]), floating)).toEqual([]);
    // Cut by the list it scrolls in, a button keeps its size as a target.
    const scrolled = control('copy', box(900, 300, 928, 310), {
      inHeader: false,
      whole: box(900, 282, 928, 310),
    });
    expect(checkLayout(measurement([...header, scrolled]), floating)).toEqual([]);
  });

  it('catch a row whose buttons are not on one line (issue 35: copy 4 px above the thumbs)', () => {
    const row = (name: string, left: number, top: number, height = 28) =>
      control(name, box(left, top, left + 28, top + height), { inHeader: false, row: 'message-actions#0' });
    const aligned = [row('copy', 900, 400), row('feedback-up', 932, 400), row('feedback-down', 964, 400)];
    expect(checkLayout(measurement([...header, ...aligned]), floating)).toEqual([]);
    const raised = [row('copy', 900, 396), row('feedback-up', 932, 400), row('feedback-down', 964, 400)];
    const failures = checkLayout(measurement([...header, ...raised]), floating);
    expect(checks(failures)).toEqual(['row-aligned', 'row-aligned']);
    expect(failures[0]!.detail).toBe(
      'in message-actions#0, feedback-up (x 932–960, y 400–428) is 4 px lower and 0 px taller than copy (x 900–928, y 396–424)',
    );
    const shorter = [row('copy', 900, 400), row('feedback-up', 932, 401, 26)];
    expect(checks(checkLayout(measurement([...header, ...shorter]), floating))).toEqual(['row-aligned']);
    // Two rows are two lines: each is held to itself only.
    const other = control('copy', box(900, 600, 928, 628), { inHeader: false, row: 'message-actions#1' });
    expect(checkLayout(measurement([...header, ...aligned, other]), floating)).toEqual([]);
  });

  it('let an open menu lie over the conversation, never over the header', () => {
    const item = (name: string, top: number) =>
      control(name, box(1000, top, 1230, top + 36), { role: 'menuitem', inHeader: false, row: null });
    const menu = [item('share', 172), item('copy-conversation', 208)];
    const log = control('messages', box(865, 172, 1263, 660), { inHeader: false });
    const under = control('copy', box(1100, 214, 1128, 242), {
      inHeader: false,
      hit: false,
      underMenu: true,
      within: 5,
    });
    expect(checkLayout(measurement([...header, ...menu, log, under]), floating)).toEqual([]);
    const overHeader = [
      header[0]!,
      header[1]!,
      control('close', header[2]!.box, { hit: false, underMenu: true }),
      control('share', box(1000, 160, 1262, 196), { role: 'menuitem', inHeader: false, row: null }),
    ];
    expect(checks(checkLayout(measurement(overHeader), floating))).toEqual([
      'covered',
      'overlap',
      'overlap',
      'overlap',
      'close-visible',
    ]);
    // Something else drawn over a control is still a defect.
    const hidden = control('copy', box(1100, 300, 1128, 328), { inHeader: false, hit: false });
    expect(checks(checkLayout(measurement([...header, hidden]), floating))).toEqual(['covered']);
  });

  it("hold an open menu inside the panel and the viewport, each item's label on one line", () => {
    const items = (lines: number) => [
      { name: 'copy-conversation', lines: 1 },
      { name: 'search-view', lines },
    ];
    const fits = { box: box(1000, 182, 1256, 300), items: items(1) };
    expect(checkLayout(measurement(header, { menus: [fits] }), floating)).toEqual([]);
    // Issue 35: the German menu at 390 px was 205 px wide and its items took 2-3 lines.
    const cramped = { box: box(1051, 182, 1256, 330), items: items(3) };
    expect(checkLayout(measurement(header, { menus: [cramped] }), floating)).toEqual([
      {
        check: 'menu-item-one-line',
        detail: 'search-view takes 3 lines in the menu at x 1051–1256, y 182–330',
      },
    ]);
    // A label longer than the panel allows (the menu as wide as the panel less 8 px a side) wraps.
    const column = measurement([], {
      viewport: { width: 320, height: 568 },
      panel: box(25, 100, 295, 600),
      menus: [{ box: box(33, 160, 287, 330), items: items(2) }],
    });
    expect(checkLayout(column, { closable: false, inFlow: true })).toEqual([]);
    // Past the panel's start (and the screen's, on a phone): outside both.
    const phone = measurement([], {
      viewport: { width: 390, height: 844 },
      panel: box(0, 0, 390, 844),
      menus: [{ box: box(-12, 56, 380, 180), items: items(1) }],
    });
    const inline = { closable: false, inFlow: false };
    expect(checks(checkLayout(phone, inline))).toEqual(['inside-panel', 'inside-viewport']);
  });

  it('catch an error banner over a message (issue 35: it covered the last question)', () => {
    const messages = [box(880, 200, 1248, 260), box(880, 270, 1248, 560)];
    const over = checkLayout(measurement(header, { messages, errors: [box(880, 540, 1248, 600)] }), floating);
    expect(over).toEqual([
      {
        check: 'error-covers-message',
        detail: 'the error banner (x 880–1248, y 540–600) lies over a message (x 880–1248, y 270–560)',
      },
    ]);
    const below = measurement(header, { messages, errors: [box(880, 570, 1248, 630)] });
    expect(checkLayout(below, floating)).toEqual([]);
  });

  it('count the launcher outside the panel only against the viewport and the other controls', () => {
    const launcher = control('launcher', box(1160, 740, 1264, 788), { inPanel: false, inHeader: false });
    expect(checkLayout(measurement([...header, launcher]), floating)).toEqual([]);
  });
});

describe('the ratchet list', () => {
  const found = new Map<string, Failure[]>([
    ['floating/empty/390/en', [{ check: 'close-visible', detail: 'no Close is shown' }]],
    ['floating/empty/1280/en', []],
  ]);

  it('holds when what fails is what is listed', () => {
    expect(compareWithKnown(found, { 'floating/empty/390/en': 'close-visible' })).toEqual({
      added: [],
      fixed: [],
    });
  });

  it('reports a failure that is not listed, with its detail', () => {
    expect(compareWithKnown(found, {}).added).toEqual([
      'floating/empty/390/en: close-visible — no Close is shown',
    ]);
  });

  it('reports a listed failure that now passes, so the list only shrinks', () => {
    const known = {
      'floating/empty/390/en': 'close-visible',
      'floating/empty/1280/en': 'title-one-line overlap',
    };
    expect(compareWithKnown(found, known).fixed).toEqual([
      'floating/empty/1280/en: title-one-line',
      'floating/empty/1280/en: overlap',
    ]);
  });

  it('names entries for results that no run measures', () => {
    expect(
      unknownKeys({ 'floating/empty/390/en': 'reach', 'gone/empty/390/en': 'reach' }, new Set(found.keys())),
    ).toEqual(['gone/empty/390/en']);
  });

  it('shrinks by the fixed checks only, dropping a result with none left', () => {
    const known = { 'a/empty/390/en': 'close-visible title-one-line', 'a/empty/320/en': 'reach' };
    const shrunk = withoutFixed(known, ['a/empty/390/en: title-one-line', 'a/empty/320/en: reach']);
    expect(shrunk).toEqual({ 'a/empty/390/en': 'close-visible' });
    expect(formatKnownFailures(shrunk, '// list\n')).toBe(
      "// list\nexport const KNOWN_FAILURES: Record<string, string> = {\n  'a/empty/390/en': 'close-visible',\n};\n",
    );
    expect(formatKnownFailures({}, '')).toBe('export const KNOWN_FAILURES: Record<string, string> = {};\n');
  });
});
