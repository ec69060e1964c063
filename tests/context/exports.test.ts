import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as context from '../../packages/docs-assistant/src/context';
import { resolveCollectors } from '../../packages/docs-assistant/src/context';

const dir = join(import.meta.dirname, '../../packages/docs-assistant/src/context');

describe('src/context', () => {
  it('exposes the public api', () => {
    expect(Object.keys(context).sort()).toEqual([
      'CONTEXT_ITEMS_MAX',
      'CONTEXT_VALUE_MAX_LENGTH',
      'DEFAULT_CODE_BLOCK_SELECTOR',
      'createCodeBlockCollector',
      'createContextStore',
      'createSelectionCollector',
      'resolveCollectors',
      'toRequestContext',
    ]);
  });

  // Loaded with the launcher (≤ 8 kB gzipped in all): only React at runtime, types from protocol.
  it('imports nothing heavy at runtime', () => {
    const files = readdirSync(dir).filter((f) => /\.tsx?$/.test(f));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const source = readFileSync(join(dir, file), 'utf8');
      for (const [, clause, from] of source.matchAll(/^(?:import|export)\s+([^;]*?)\s+from\s+'([^']+)'/gm)) {
        const typeOnly = clause!.startsWith('type ');
        const allowed = from!.startsWith('./') || from === 'react' || typeOnly;
        expect(allowed, `${file} imports ${clause} from '${from}' at runtime`).toBe(true);
      }
    }
  });

  it('resolves the collectors prop with its defaults', () => {
    expect(resolveCollectors(undefined)).toEqual({ selection: true, codeBlocks: 'pre' });
    expect(resolveCollectors(false)).toEqual({ selection: false, codeBlocks: false });
    expect(resolveCollectors({ selection: false })).toEqual({ selection: false, codeBlocks: 'pre' });
    expect(resolveCollectors({ codeBlocks: '.highlight pre' })).toEqual({
      selection: true,
      codeBlocks: '.highlight pre',
    });
    expect(resolveCollectors({ codeBlocks: false })).toEqual({ selection: true, codeBlocks: false });
  });
});
