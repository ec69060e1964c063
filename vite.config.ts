/// <reference types="vitest/config" />
/**
 * The workspace's test runner. Each package builds with its own config
 * (`packages/docs-assistant/vite.config.ts`, `packages/docs-assistant-server/vite.config.ts`);
 * tests import the sources, and `docs-assistant/*` resolves to the widget's sources here exactly as
 * `tsconfig.json`'s `paths` say, so the server's sources run without a build. What users install is
 * tested from the packed tarballs in `tests/consumers/`.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const widget = (path: string) =>
  fileURLToPath(new URL(`./packages/docs-assistant/src/${path}`, import.meta.url));

/** `docs-assistant` and its subpath exports, to the sources they are built from. */
export const sourceAliases = [
  { find: /^docs-assistant$/, replacement: widget('index.ts') },
  { find: /^docs-assistant\/widget$/, replacement: widget('widget.ts') },
  { find: /^docs-assistant\/protocol$/, replacement: widget('protocol/entry.ts') },
  { find: /^docs-assistant\/static-export$/, replacement: widget('static-export/index.ts') },
  { find: /^docs-assistant\/static-export\/react$/, replacement: widget('static-export/react.ts') },
  { find: /^docs-assistant\/proxy$/, replacement: widget('proxy/index.ts') },
  { find: /^docs-assistant\/labels\/(de|ar)$/, replacement: widget('labels/$1.ts') },
  { find: /^docs-assistant\/styles\.css$/, replacement: widget('styles/docs-assistant.css') },
];

export default defineConfig({
  plugins: [react()],
  resolve: { alias: sourceAliases },
  test: {
    projects: [
      {
        // The tests of the sources (everything but the consumer matrix).
        extends: true,
        test: {
          name: 'unit',
          globals: true,
          environment: 'node',
          include: ['tests/**/*.test.{ts,tsx}', 'packages/*/src/**/*.test.{ts,tsx}'],
          // tests/.artifacts holds built apps and copies of the tree that scripts make (visual
          // baselines check out a commit there): their test files are not this tree's.
          exclude: ['tests/consumers/**', '**/node_modules/**', 'tests/.artifacts/**'],
          setupFiles: ['tests/setup.ts'],
          // Two files at a time at least: Vitest's default on two cores is one, and much of a file is
          // waiting (Chromium, a service, PostgreSQL, a build in another process): one at a time the
          // run left a quarter to a third of the two cores idle and its files took 27 minutes, two at
          // a time 19. DOCS_ASSISTANT_TEST_WORKERS sets it (`--maxWorkers` cannot: a project's own
          // value wins over the command line's); .ci/run's runs beside each other take one each.
          maxWorkers:
            Number(process.env.DOCS_ASSISTANT_TEST_WORKERS) || Math.max(2, availableParallelism() - 1),
          // A test's limit, not its measure: the browser scenarios take 10-16 s here (sharing, two
          // tabs, a 1 MB answer) and crossed 20 s with two files at a time on a busy machine.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // `expect.poll` gives up after 1 s by default: on a busy machine a streamed answer takes
          // longer than that (tests/ui/layout.browser.test.ts failed so beside a full run). A poll
          // ends as soon as it holds, so the longer bound costs nothing when things are quick.
          expect: { poll: { timeout: 10_000 } },
        },
      },
      {
        // Real apps installing the packed tarballs (tests/consumers/harness.ts): builds, installs
        // and browsers, one file at a time on shared cores. `npm test` runs this project in a
        // process of its own beside the unit project's (scripts/test-vitest.ts); in one `vitest
        // run` Vitest puts it after every other project.
        test: {
          name: 'consumers',
          globals: true,
          environment: 'node',
          include: ['tests/consumers/**/*.test.ts'],
          globalSetup: ['tests/consumers/global-setup.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          testTimeout: 120_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
