// Shared test setup. DOM tests opt into jsdom with a `// @vitest-environment jsdom` docblock;
// the matchers and the cleanup only apply there.
import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';

if (typeof window !== 'undefined') {
  const { cleanup, configure } = await import('@testing-library/react');
  // waitFor/findBy wait for a state, not against a deadline: CI shares its 2 cores, and a state
  // that takes longer than Testing Library's 1 s default there is slow, not wrong.
  configure({ asyncUtilTimeout: 5000 });
  afterEach(() => {
    cleanup();
    window.localStorage?.clear();
  });
}
