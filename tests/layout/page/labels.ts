/**
 * The languages the layout is measured in: the widget's own label packs (src/labels/de.ts,
 * src/labels/ar.ts), passed through the public `labels` prop as a site translating the widget
 * does. German stands for long labels (its words run a third longer than English), Arabic for
 * right to left. The packs are plain data, read from the sources: the package has no entry for
 * them yet, and an older revision measured with LAYOUT_SOURCE gets the same words.
 */
import type { Labels } from 'docs-assistant';
import { labelsAr } from '../../../packages/docs-assistant/src/labels/ar';
import { labelsDe } from '../../../packages/docs-assistant/src/labels/de';

export const LANGS = ['en', 'de', 'ar'] as const;
export type Lang = (typeof LANGS)[number];

export const LABELS: Record<Lang, Partial<Labels> | undefined> = {
  en: undefined,
  de: labelsDe,
  ar: labelsAr,
};

/** `<html lang dir>` as a site in that language has it. */
export function setDocumentLanguage(lang: Lang): void {
  document.documentElement.lang = lang;
  document.documentElement.dir = lang === 'ar' ? 'rtl' : 'ltr';
}
