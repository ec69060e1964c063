/**
 * The language packs fill every string of the widget: the launcher's, the panel's, and each lazily
 * loaded view's (whose words `Labels` takes, optional, from `labels/views/`, so the type alone
 * would let a pack leave one in English). A word added to any default must be added to the packs.
 */
import { describe, expect, it } from 'vitest';
import { labelsAr } from '../../packages/docs-assistant/src/labels/ar.js';
import { labelsDe } from '../../packages/docs-assistant/src/labels/de.js';
import { defaultLabels } from '../../packages/docs-assistant/src/labels/defaults.js';
import type { Labels } from '../../packages/docs-assistant/src/labels/types.js';
import { attachmentDefaults } from '../../packages/docs-assistant/src/labels/views/attachments.js';
import { feedbackDefaults } from '../../packages/docs-assistant/src/labels/views/feedback.js';
import { historyDefaults } from '../../packages/docs-assistant/src/labels/views/history.js';
import { searchDefaults } from '../../packages/docs-assistant/src/labels/views/search.js';
import { shareDefaults } from '../../packages/docs-assistant/src/labels/views/share.js';

const english: Record<string, unknown> = {
  ...defaultLabels,
  ...historyDefaults,
  ...shareDefaults,
  ...feedbackDefaults,
  ...searchDefaults,
  ...attachmentDefaults,
};

describe.each([
  ['de', labelsDe],
  ['ar', labelsAr],
] as [string, Labels][])('labels/%s', (_, pack) => {
  it('has every string the English defaults have, and no other', () => {
    expect(Object.keys(pack).sort()).toEqual(Object.keys(english).sort());
  });

  it('words each string in its own language, of the same kind as the default', () => {
    for (const [key, value] of Object.entries(pack)) {
      const given = english[key];
      expect(typeof value, key).toBe(typeof given);
      if (typeof value === 'string') expect(value, key).not.toBe('');
      else {
        const args = ['x', 2];
        const said = (value as (...a: unknown[]) => string)(...args);
        expect(typeof said, key).toBe('string');
        expect(said.length, key).toBeGreaterThan(0);
      }
    }
  });
});
