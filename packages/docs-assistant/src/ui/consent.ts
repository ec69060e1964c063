/**
 * The consent gate (the `consent` prop), the part the shell holds: whether the reader has accepted,
 * where that is remembered, and what is deleted when consent is withdrawn. Until the reader accepts,
 * the shell loads none of the panel's code (so no chat, search, storage or request code runs), no
 * collector, and preloads nothing; the notice itself is a lazy view (`views/consent/`).
 */

import type { ConsentNoticeText } from '../views/consent/consent-notice.js';

/** The `consent` prop when it is an object; `true` is the same as `{}`. */
export interface ConsentOptions extends ConsentNoticeText {
  /** Whether the reader must accept first; `false` turns the gate off (e.g. outside the regions that need it). @default true */
  required?: boolean;
  /**
   * The host's own consent manager decides: `true` lets the widget work, `false` shows the notice
   * (and, after `true`, withdraws: what the widget stored is deleted). Given, the widget stores no
   * consent flag of its own; the notice's button calls `onChange(true)` for the host to record.
   */
  granted?: boolean;
  /** Called when the reader accepts (`true`) and when consent is withdrawn (`false`). */
  onChange?: (granted: boolean) => void;
  /** localStorage key where the acceptance is remembered. @default `docs-assistant:consent:<domain>` */
  storageKey?: string;
}

/** The key under which acceptance is remembered for a domain. */
export const consentKey = (domain: string, options?: ConsentOptions): string =>
  options?.storageKey || `docs-assistant:consent:${domain}`;

/** Whether acceptance is remembered under `key` (false where storage is blocked: ask again). */
export function readConsent(key: string): boolean {
  try {
    return localStorage.getItem(key) !== null;
  } catch {
    return false;
  }
}

/** Remembers acceptance (when it was given); where storage is blocked it holds for this page view. */
export function rememberConsent(key: string): void {
  try {
    localStorage.setItem(key, new Date().toISOString());
  } catch {
    // Blocked or full: the reader is asked again on the next page.
  }
}

// What withdrawal deletes (`forgetStored`) is in the notice's chunk (`views/consent/consent-notice.tsx`):
// nothing before the first withdrawal needs it.
