/**
 * A reader at a layout page: measures what is on screen (measure.ts) and acts as a reader does,
 * by clicking where a control is drawn and typing on the keyboard, so the same steps drive the
 * React widget and the script build in an open or a closed shadow root. A closed root is reached
 * the way DevTools reaches it: the DevTools protocol resolves the root, and the same measuring
 * function runs with it.
 */
import type { CDPSession, Page } from 'playwright-core';
import { type Control, type Measurement, measureWidget } from './measure';

// Some TypeScript runners (tsx) wrap nested functions in a `__name` helper that the page lacks.
const MEASURE = `function (scope) { const __name = (f) => f; return (${measureWidget.toString()})(scope); }`;

/** Longest wait for a state to appear (in polls of the page, each one measurement). */
const MAX_POLLS = 300;

export class StateNotReached extends Error {}

/** What a reader could click, for a message saying why a state was not reached. */
const onScreen = (measured: Measurement) =>
  `on screen: ${measured.controls.map((control) => `${control.name}${control.hit ? '' : ' (covered)'}`).join(', ') || 'no control'}`;

export class Reader {
  private closedRoot: string | undefined;
  private cdp: CDPSession | undefined;

  constructor(
    readonly page: Page,
    private readonly closed: boolean,
  ) {}

  async goto(url: string): Promise<void> {
    this.closedRoot = undefined;
    await this.page.goto(url);
  }

  /** The closed shadow root of `<docs-assistant>`, as a DevTools object id (once it exists). */
  private async closedRootId(): Promise<string | undefined> {
    if (this.closedRoot) return this.closedRoot;
    this.cdp ??= await this.page.context().newCDPSession(this.page);
    type Node = { localName?: string; children?: Node[]; shadowRoots?: { backendNodeId: number }[] };
    const { root } = (await this.cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: Node };
    const host = (function find(node: Node): Node | undefined {
      if (node.localName === 'docs-assistant') return node;
      for (const child of node.children ?? []) {
        const found = find(child);
        if (found) return found;
      }
      return undefined;
    })(root);
    const shadow = host?.shadowRoots?.[0];
    if (!shadow) return undefined;
    const { object } = await this.cdp.send('DOM.resolveNode', { backendNodeId: shadow.backendNodeId });
    this.closedRoot = object.objectId;
    return this.closedRoot;
  }

  async measureOnce(): Promise<Measurement> {
    if (!this.closed) return this.page.evaluate(`(${MEASURE})(document)`) as Promise<Measurement>;
    const objectId = await this.closedRootId();
    if (!objectId) return this.page.evaluate(`(${MEASURE})(document)`) as Promise<Measurement>;
    const { result, exceptionDetails } = await this.cdp!.send('Runtime.callFunctionOn', {
      objectId,
      functionDeclaration: `function () { return (${MEASURE})(this); }`,
      returnByValue: true,
    });
    if (exceptionDetails) throw new Error(`measuring the closed root failed: ${exceptionDetails.text}`);
    return result.value as Measurement;
  }

  /** A measurement once the layout has settled: two in a row, a frame apart, that agree. */
  async measure(): Promise<Measurement> {
    let last = JSON.stringify(await this.measureOnce());
    for (let tries = 0; tries < 10; tries++) {
      await this.page.evaluate(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
      );
      const next = await this.measureOnce();
      const text = JSON.stringify(next);
      if (text === last) return next;
      last = text;
    }
    return JSON.parse(last) as Measurement;
  }

  /** Measures until `ready` holds; a state that never comes is `StateNotReached` with `what`. */
  async waitFor(what: string, ready: (measured: Measurement) => boolean): Promise<Measurement> {
    let measured: Measurement | undefined;
    for (let poll = 0; poll < MAX_POLLS; poll++) {
      measured = await this.measureOnce();
      if (ready(measured)) return measured;
      await this.page.waitForTimeout(50);
    }
    const last = measured ? ` (status ${measured.status}, ${onScreen(measured)})` : '';
    throw new StateNotReached(`${what} never came${last}`);
  }

  async click(control: Control): Promise<void> {
    const { box } = control;
    await this.page.mouse.click((box.left + box.right) / 2, (box.top + box.bottom) / 2);
  }

  /** Clicks the visible control that `pick` finds, or says which one is missing. */
  async clickOn(what: string, pick: (control: Control) => boolean): Promise<void> {
    const measured = await this.measureOnce();
    const control = measured.controls.find((control) => pick(control) && control.hit);
    if (!control) throw new StateNotReached(`no ${what} to click (${onScreen(measured)})`);
    await this.click(control);
  }

  /** Types into the composer (in the search view, typing is the search). */
  async type(text: string): Promise<void> {
    await this.clickOn('question box', (control) => control.hook === 'input');
    await this.page.keyboard.type(text);
  }

  /** Types a question into the composer and sends it with Enter. */
  async ask(question: string): Promise<void> {
    await this.type(question);
    await this.page.keyboard.press('Enter');
  }

  /** The header's "More" button, where the header has one. */
  static menuButton = (control: Control) =>
    control.inHeader && (control.popup === 'menu' || control.popup === 'true');

  async openMenu(): Promise<Measurement> {
    await this.clickOn('"More" menu button in the header', Reader.menuButton);
    return this.waitFor('the "More" menu', (measured) => measured.shown.includes('role=menu'));
  }

  /**
   * Runs a header action by its `data-action`: its own button where the header shows one, else its
   * item in the "More" menu.
   */
  async action(id: string): Promise<void> {
    const measured = await this.measureOnce();
    const direct = measured.controls.find((control) => control.action === id && control.hit);
    if (direct) return this.click(direct);
    if (!measured.controls.some(Reader.menuButton)) {
      throw new StateNotReached(`no "${id}" button and no menu (${onScreen(measured)})`);
    }
    const withMenu = await this.openMenu();
    const item = withMenu.controls.find((control) => control.action === id && control.hit);
    if (!item) throw new StateNotReached(`no "${id}" in the "More" menu (${onScreen(withMenu)})`);
    await this.click(item);
  }

  async setLayout(control: Partial<{ hold: boolean; fail: number }>, release = false): Promise<void> {
    await this.page.evaluate(
      ({ control, release }) => {
        Object.assign(window.__layout, control);
        if (release) window.__layout.release();
      },
      { control, release },
    );
  }
}
