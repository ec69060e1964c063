/**
 * The rules a reader's eye applies to one measurement (see measure.ts): every visible control lies
 * wholly inside the panel and the viewport, no two overlap, a click on each lands on it, the title
 * is one line, Close is there wherever the panel can be closed, every action is at least 24×24
 * CSS px (WCAG 2.2 target size; a link in a sentence is exempt, as WCAG has it), and the buttons
 * of a row (the header, an answer's actions) sit on one line, the same height; an error banner
 * never lies over a message of the conversation. An open "More"
 * menu is a popup: it may lie over the conversation, never over the header; it lies wholly inside
 * the panel and the viewport, each item's label on one line unless the menu is as wide as the
 * panel allows. Pure functions, so the
 * rules are tested on their own (checks.test.ts) as well as on the widget.
 */
import type { Box, Control, Measurement } from './measure';

export const CHECKS = [
  'inside-panel',
  'inside-viewport',
  'overlap',
  'covered',
  'title-one-line',
  'close-visible',
  'target-size',
  'row-aligned',
  'error-covers-message',
  'menu-item-one-line',
] as const;
export type Check = (typeof CHECKS)[number];

export interface Failure {
  /** A rule that failed, or `reach`: the state could not be brought about. */
  check: Check | 'reach';
  detail: string;
}

export interface Expectations {
  /** The panel has a Close (every variant but inline). */
  closable: boolean;
  /** The panel sits in the page's flow (inline): below the fold is a scroll away, not off-screen. */
  inFlow: boolean;
}

/** Sub-pixel slack (in CSS px): layout rounds edges to device pixels. */
const SLACK = 0.5;
/** WCAG 2.2 (2.5.8 Target Size, Minimum): 24 by 24 CSS px. */
export const MIN_TARGET = 24;
/** The room an open menu leaves on each side of it in the panel (in CSS px): the CSS's 0.5rem. */
const MENU_MARGIN = 8;
/** How far the centres or heights of a row's buttons may differ (in CSS px) and still read as one line. */
const ROW_SLACK = 1;

const contains = (outer: Box, inner: Box) =>
  inner.left >= outer.left - SLACK &&
  inner.right <= outer.right + SLACK &&
  inner.top >= outer.top - SLACK &&
  inner.bottom <= outer.bottom + SLACK;

const px = (value: number) => Math.round(value);
export const showBox = (box: Box) => `x ${px(box.left)}–${px(box.right)}, y ${px(box.top)}–${px(box.bottom)}`;

function overlapArea(a: Box, b: Box): number {
  const width = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const height = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return width > SLACK && height > SLACK ? width * height : 0;
}

const isMenuItem = (control: Control) => control.role.startsWith('menuitem');

/** An open menu over the conversation is a popup doing its job; over the header it hides actions. */
const popupOver = (a: Control, b: Control) =>
  (isMenuItem(a) && !isMenuItem(b) && !b.inHeader) || (isMenuItem(b) && !isMenuItem(a) && !a.inHeader);

/** Whether `inner` sits inside `outer` in the DOM (a button in a link does not "overlap" it). */
function nested(controls: Control[], inner: number, outer: number): boolean {
  for (let at = controls[inner]!.within; at !== null; at = controls[at]!.within)
    if (at === outer) return true;
  return false;
}

export function checkLayout(measured: Measurement, expectations: Expectations): Failure[] {
  const { panel, controls, viewport } = measured;
  const failures: Failure[] = [];
  const screen: Box = { left: 0, top: 0, right: viewport.width, bottom: viewport.height };
  const onScreen = (box: Box) =>
    expectations.inFlow ? box.left >= -SLACK && box.right <= screen.right + SLACK : contains(screen, box);
  for (const control of controls) {
    const where = `${control.name} at ${showBox(control.box)}`;
    if (panel && control.inPanel && !contains(panel, control.box)) {
      failures.push({ check: 'inside-panel', detail: `${where}, panel ${showBox(panel)}` });
    }
    if (!onScreen(control.box)) {
      failures.push({
        check: 'inside-viewport',
        detail: `${where}, viewport ${viewport.width}×${viewport.height}`,
      });
    }
    const x = (control.box.left + control.box.right) / 2;
    const y = (control.box.top + control.box.bottom) / 2;
    const centreOnScreen = x >= 0 && y >= 0 && x < viewport.width && y < viewport.height;
    if (centreOnScreen && !control.hit && !(control.underMenu && !control.inHeader))
      failures.push({ check: 'covered', detail: `${where}: a click lands on something else` });
    const width = control.whole.right - control.whole.left;
    const height = control.whole.bottom - control.whole.top;
    if (!control.inline && (width < MIN_TARGET - SLACK || height < MIN_TARGET - SLACK)) {
      failures.push({
        check: 'target-size',
        detail: `${control.name} is ${px(width)}×${px(height)} px (at least ${MIN_TARGET}×${MIN_TARGET})`,
      });
    }
  }
  failures.push(...checkRows(controls), ...checkMenus(measured, onScreen));
  for (const error of measured.errors) {
    const under = measured.messages.find((message) => overlapArea(error, message) > 1);
    if (under) {
      failures.push({
        check: 'error-covers-message',
        detail: `the error banner (${showBox(error)}) lies over a message (${showBox(under)})`,
      });
    }
  }
  for (let a = 0; a < controls.length; a++) {
    for (let b = a + 1; b < controls.length; b++) {
      if (nested(controls, a, b) || nested(controls, b, a)) continue;
      if (popupOver(controls[a]!, controls[b]!)) continue;
      const area = overlapArea(controls[a]!.box, controls[b]!.box);
      if (area > 1) {
        failures.push({
          check: 'overlap',
          detail: `${controls[a]!.name} (${showBox(controls[a]!.box)}) and ${controls[b]!.name} (${showBox(controls[b]!.box)}) share ${px(area)} px²`,
        });
      }
    }
  }
  if (panel && measured.titleLines !== 1) {
    failures.push({
      check: 'title-one-line',
      detail:
        measured.titleLines === 0 ? 'no title is shown' : `the title takes ${measured.titleLines} lines`,
    });
  }
  if (panel && expectations.closable) {
    const close = controls.find((control) => control.action === 'close' && control.inPanel);
    const problem = !close
      ? 'no Close is shown'
      : !contains(panel, close.box) || !onScreen(close.box)
        ? `Close at ${showBox(close.box)} is outside the panel (${showBox(panel)}) or the viewport`
        : !close.hit
          ? 'Close is covered'
          : undefined;
    if (problem) failures.push({ check: 'close-visible', detail: problem });
  }
  return failures;
}

/**
 * An open menu lies inside the panel and the viewport, and no item's label wraps while the menu
 * could still grow: it may be as wide as the panel less MENU_MARGIN on each side, and a label
 * longer than that (German in a 270 px inline column) wraps rather than leaving the panel.
 */
function checkMenus({ menus, panel, viewport }: Measurement, onScreen: (box: Box) => boolean): Failure[] {
  const failures: Failure[] = [];
  const widest = panel ? panel.right - panel.left - 2 * MENU_MARGIN : Number.POSITIVE_INFINITY;
  for (const menu of menus) {
    const where = `the menu at ${showBox(menu.box)}`;
    if (panel && !contains(panel, menu.box)) {
      failures.push({ check: 'inside-panel', detail: `${where}, panel ${showBox(panel)}` });
    }
    if (!onScreen(menu.box)) {
      failures.push({
        check: 'inside-viewport',
        detail: `${where}, viewport ${viewport.width}×${viewport.height}`,
      });
    }
    // 3 px: the panel's border (the menu's room is the header's, inside it) and rounding.
    if (menu.box.right - menu.box.left >= widest - 3) continue;
    for (const item of menu.items.filter((entry) => entry.lines > 1)) {
      failures.push({
        check: 'menu-item-one-line',
        detail: `${item.name} takes ${item.lines} lines in ${where}`,
      });
    }
  }
  return failures;
}

/** The buttons of each row (the header, an answer's actions) share one centre line and one height. */
function checkRows(controls: Control[]): Failure[] {
  const rows = new Map<string, Control[]>();
  for (const control of controls) {
    if (control.row) rows.set(control.row, [...(rows.get(control.row) ?? []), control]);
  }
  const failures: Failure[] = [];
  for (const [row, members] of rows) {
    const first = members[0]!;
    const centre = (control: Control) => (control.whole.top + control.whole.bottom) / 2;
    const height = (control: Control) => control.whole.bottom - control.whole.top;
    for (const other of members.slice(1)) {
      const off = centre(other) - centre(first);
      const taller = height(other) - height(first);
      if (Math.abs(off) <= ROW_SLACK && Math.abs(taller) <= ROW_SLACK) continue;
      failures.push({
        check: 'row-aligned',
        detail: `in ${row}, ${other.name} (${showBox(other.whole)}) is ${px(Math.abs(off))} px ${off < 0 ? 'higher' : 'lower'} and ${px(Math.abs(taller))} px ${taller < 0 ? 'shorter' : 'taller'} than ${first.name} (${showBox(first.whole)})`,
      });
    }
  }
  return failures;
}

/** Counts for a run's note: results measured and failing, failures by check, by state, by target. */
export function summarise(results: ReadonlyMap<string, Failure[]>, source = 'working tree') {
  const count = (into: Record<string, number>, key: string) => {
    into[key] = (into[key] ?? 0) + 1;
  };
  const byCheck: Record<string, number> = {};
  const failingByState: Record<string, number> = {};
  const failingByTarget: Record<string, number> = {};
  let failing = 0;
  for (const [key, failures] of results) {
    if (failures.length === 0) continue;
    failing++;
    const [target, state] = key.split('/');
    count(failingByState, state!);
    count(failingByTarget, target!);
    for (const check of new Set(failures.map((failure) => failure.check))) count(byCheck, check);
  }
  return { source, measured: results.size, failing, byCheck, failingByState, failingByTarget };
}
