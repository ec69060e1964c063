/**
 * The heavy panel's code (`panel.tsx`): loaded once, on the launcher's hover or focus (so it is
 * usually there by the time it is clicked) or on first open; a failed load may be retried. Kept
 * out of `docs-assistant.tsx`, whose exports are public (`widget.ts` re-exports it with `export *`).
 */
import { type ComponentType, lazy } from 'react';
import type { PanelProps } from './panel-types.js';

let panelModule: Promise<typeof import('./panel.js')> | undefined;
/** The panel once loaded, so a later mount renders it at once instead of showing "Loading…". */
let loadedPanel: ComponentType<PanelProps> | undefined;

export const loadedPanelCode = (): ComponentType<PanelProps> | undefined => loadedPanel;

export function preloadPanel(): Promise<typeof import('./panel.js')> {
  panelModule ??= import('./panel.js').then(
    (module) => {
      loadedPanel = module.default;
      return module;
    },
    (error: unknown) => {
      panelModule = undefined;
      throw error;
    },
  );
  return panelModule;
}

/** Consent withdrawn: a conversation the loaded panel keeps in memory goes too. */
export function forgetPanelMemory(domain: string): void {
  void panelModule?.then((module) => module.forgetMemory(domain));
}

// The consent notice (the `consent` prop): its own chunk, loaded when it is first shown or when
// consent is withdrawn (it holds `forgetStored`).
export const consentView = () => import('../views/consent/consent-notice.js');
export const ConsentNotice = lazy(consentView);
