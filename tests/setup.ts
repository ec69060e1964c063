// Shared test setup. DOM tests opt into jsdom with a `// @vitest-environment jsdom` docblock;
// the matchers and the cleanup only apply there.
import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';

if (typeof window !== 'undefined') {
  const { cleanup } = await import('@testing-library/react');
  afterEach(() => {
    cleanup();
    window.localStorage?.clear();
  });
}
