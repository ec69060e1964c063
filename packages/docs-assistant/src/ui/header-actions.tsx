/**
 * The header's actions as data. Each feature adds an entry (`{ id, label, icon, run, when }`);
 * the header decides where it goes: the one or two actions readers use most as icon buttons with
 * a name and a tooltip, everything else in the "More" menu, Close (the shell's) always last. A new
 * feature is one more entry here, never another button squeezed into the row.
 */
import { memo } from 'react';
import { Menu } from './menu.js';
import { ICONS, type IconName } from './panel-icons.js';
import { Icon } from './shell-frame.js';

export interface HeaderAction {
  /** `data-action` of its button or menu item (stable, for tests, styles and analytics). */
  id: string;
  /** Its accessible name, tooltip and menu text. */
  label: string;
  icon: IconName;
  run: () => void;
  /** Offered only when true. @default true */
  when?: boolean;
  /** An icon button in the row instead of an item of "More". @default false */
  primary?: boolean;
  /** A toggle (the history or search view shown): `aria-pressed` on its button. */
  pressed?: boolean;
  disabled?: boolean;
  /** A link (a support page, a `mailto:`), with its extra attributes (`target`, `rel`). */
  href?: string;
  linkProps?: { target?: string; rel?: string };
}

export interface HeaderActionsProps {
  actions: readonly HeaderAction[];
  /** The "More" button's name. */
  moreLabel: string;
}

/** The actions in effect: the primary ones as icon buttons, then "More" with the rest. */
export const HeaderActions = memo(function HeaderActions({ actions, moreLabel }: HeaderActionsProps) {
  const shown = actions.filter((action) => action.when !== false);
  const primary = shown.filter((action) => action.primary);
  const rest = shown.filter((action) => !action.primary);
  return (
    <>
      {primary.map((action) => (
        <IconButton key={action.id} action={action} />
      ))}
      {rest.length ? <Menu label={moreLabel} items={rest} /> : null}
    </>
  );
});
HeaderActions.displayName = 'HeaderActions';

function IconButton({ action }: { action: HeaderAction }) {
  return (
    <button
      type="button"
      data-action={action.id}
      aria-label={action.label}
      aria-pressed={action.pressed}
      disabled={action.disabled}
      onClick={action.run}
    >
      <Icon path={ICONS[action.icon]} />
      <span data-docs-assistant="tooltip" aria-hidden="true">
        {action.label}
      </span>
    </button>
  );
}
