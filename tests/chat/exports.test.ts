import { describe, expect, it } from 'vitest';
import * as chat from '../../packages/docs-assistant/src/chat';

describe('src/chat', () => {
  it('exposes the public api', () => {
    expect(Object.keys(chat).sort()).toEqual([
      'createLocalThreadStorage',
      'createMemoryThreadStorage',
      'threadStorageKey',
      'useDocsAssistant',
    ]);
  });
});
