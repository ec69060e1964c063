/**
 * The header's "More" menu: a WAI-ARIA menu button (APG "Actions Menu Button"). The button opens
 * the menu with Enter, Space or an arrow key (Up lands on the last item); in the menu the arrows
 * move and wrap, Home and End jump, a letter moves to the next item starting with it, Escape closes
 * it and gives focus back to the button, and Tab closes it and goes on. It also closes when focus
 * leaves it (a click outside, in the page or in the panel), which holds in a closed shadow root,
 * where a listener on the document cannot see which element was clicked.
 */
import { type FocusEvent, type KeyboardEvent, useId, useLayoutEffect, useRef, useState } from 'react';
import type { HeaderAction } from './header-actions.js';
import { ICONS } from './panel-icons.js';
import { Icon } from './shell-frame.js';

export interface MenuProps {
  /** The button's name, also the menu's. */
  label: string;
  items: readonly HeaderAction[];
}

/** Where focus goes when the menu opens: the first or the last item. */
type Opening = 'first' | 'last' | null;

const entries = (menu: HTMLElement | null) =>
  Array.from(menu?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? []);

export function Menu({ label, items }: MenuProps) {
  const [opening, setOpening] = useState<Opening>(null);
  const open = opening !== null;
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    if (!opening) return;
    const all = entries(menuRef.current);
    (opening === 'first' ? all[0] : all[all.length - 1])?.focus();
  }, [opening]);

  const close = (refocus: boolean) => {
    setOpening(null);
    if (refocus) buttonRef.current?.focus();
  };

  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (open && !event.currentTarget.contains(event.relatedTarget as Node | null)) close(false);
  };

  const choose = (item: HeaderAction) => {
    // Back on the button first: an action that moves focus on (the question box) then keeps it.
    close(true);
    item.run();
  };

  return (
    // Focus leaving the button and its menu (a click elsewhere, Tab) closes the menu: a blur
    // listener, not a key or pointer handler, so the wrapper stays a plain element.
    // biome-ignore lint/a11y/noStaticElementInteractions: see above
    <div data-docs-assistant="menu-anchor" onBlur={onBlur}>
      <button
        ref={buttonRef}
        type="button"
        data-action="more"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : setOpening('first'))}
        onKeyDown={(event) => {
          if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
          event.preventDefault();
          setOpening(event.key === 'ArrowUp' ? 'last' : 'first');
        }}
      >
        <Icon path={ICONS.more} />
        <span data-docs-assistant="tooltip" aria-hidden="true">
          {label}
        </span>
      </button>
      {open ? (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label={label}
          data-docs-assistant="menu"
          tabIndex={-1}
          onKeyDown={(event) => onMenuKeyDown(event, close)}
          // A press on the menu's padding would move focus out (and close it) before the click.
          onMouseDown={(event) => event.preventDefault()}
        >
          {items.map((item) => (
            <MenuItem key={item.id} item={item} onChoose={choose} />
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** The menu's keys: arrows move and wrap, Home and End jump, a letter finds, Escape and Tab close. */
function onMenuKeyDown(event: KeyboardEvent<HTMLDivElement>, close: (refocus: boolean) => void) {
  const all = entries(event.currentTarget);
  const index = all.indexOf(event.target as HTMLElement);
  const move = (to: number) => all[(to + all.length) % all.length]?.focus();
  if (event.key === 'Escape') {
    // Closes the menu only, not the panel around it.
    event.stopPropagation();
    close(true);
  } else if (event.key === 'Tab') close(false);
  else if (event.key === 'ArrowDown') move(index + 1);
  else if (event.key === 'ArrowUp') move(index - 1);
  else if (event.key === 'Home') move(0);
  else if (event.key === 'End') move(all.length - 1);
  else if (event.key.length === 1 && /\S/.test(event.key)) {
    const key = event.key.toLocaleLowerCase();
    const after = [...all.slice(index + 1), ...all.slice(0, index + 1)];
    after.find((item) => item.textContent?.trim().toLocaleLowerCase().startsWith(key))?.focus();
  } else return;
  if (event.key !== 'Tab') event.preventDefault();
}

function MenuItem({ item, onChoose }: { item: HeaderAction; onChoose: (item: HeaderAction) => void }) {
  // A toggle (the search view) is a checkbox item: its state is `aria-checked`.
  const common = {
    role: item.pressed === undefined ? 'menuitem' : 'menuitemcheckbox',
    'aria-checked': item.pressed,
    tabIndex: -1,
    'data-action': item.id,
    'aria-disabled': item.disabled || undefined,
  } as const;
  const body = (
    <>
      <Icon path={ICONS[item.icon]} />
      <span>{item.label}</span>
    </>
  );
  if (item.href) {
    return (
      <a {...common} href={item.href} {...item.linkProps} onClick={() => onChoose(item)}>
        {body}
      </a>
    );
  }
  return (
    <button
      {...common}
      type="button"
      onClick={(event) => {
        if (item.disabled) event.preventDefault();
        else onChoose(item);
      }}
    >
      {body}
    </button>
  );
}
