/**
 * The shell's frame (`ShellFrame`: what the panel uses of the launcher's modules) for everything in
 * the panel: the panel's root provides the one the shell handed it, and the panel's modules read it
 * here instead of importing `icons.tsx`, `dom.ts`, `events/emit.ts` or the labels' `shell.ts` and
 * `merge.ts`, which the launcher has. Imported by the panel, they would be modules both load, which
 * esbuild splits into a file of their own that the page loads before the assistant is opened.
 */
import { createContext, useContext } from 'react';
import type { ShellFrame } from './panel-types.js';

export const ShellFrameContext = createContext<ShellFrame | null>(null);

/** The shell's frame; only the panel (`panel.tsx`) renders what reads it, inside its provider. */
export function useShellFrame(): ShellFrame {
  const frame = useContext(ShellFrameContext);
  if (!frame) throw new Error('docs-assistant: a part of the panel rendered outside the panel.');
  return frame;
}

/** The shell's `Icon` (`icons.tsx`): a stroke path on a 24px grid, decorative. */
export function Icon({ path }: { path: string }) {
  const { Icon: ShellIcon } = useShellFrame();
  return <ShellIcon path={path} />;
}

/** The shell's close icon (`CLOSE` in `icons.tsx`, which the header's Close shows too). */
export function CloseIcon() {
  const { Icon: ShellIcon, close } = useShellFrame();
  return <ShellIcon path={close} />;
}
