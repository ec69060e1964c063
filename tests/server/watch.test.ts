/**
 * Watch mode (`watch: true`, `docs-assistant serve --watch`): a docs file edited while the service
 * runs changes the next answer, with only that file parsed again. The test waits for the service
 * to report the new index (`onIndex`), never for a time.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IndexBuild } from '../../packages/docs-assistant-server/src/retrieval/persist';
import {
  type AssistantService,
  createAssistantService,
} from '../../packages/docs-assistant-server/src/service';
import { ask } from './helpers';
import { MDX_FIXTURES } from './mdx-fixtures';

let root: string;
let docs: string;
let service: AssistantService | undefined;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'docs-assistant-watch-'));
  docs = join(root, 'docs');
  cpSync(MDX_FIXTURES, docs, { recursive: true });
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  rmSync(root, { recursive: true, force: true });
});

/** Starts a watching service; `next(test)` resolves with the first index build that passes `test`. */
async function startWatching(dataDir?: string) {
  const builds: IndexBuild[] = [];
  const waiting: { test: (build: IndexBuild) => boolean; resolve: (build: IndexBuild) => void }[] = [];
  service = createAssistantService({
    docs,
    domain: 'acme',
    assistantKey: 'svc_dsc_test_assistant',
    ...(dataDir ? { dataDir } : {}),
    watch: { debounceMs: 30 },
    warn: () => {},
    onIndex: (_domain, build) => {
      builds.push(build);
      for (const wait of waiting.splice(0)) {
        if (wait.test(build)) wait.resolve(build);
        else waiting.push(wait);
      }
    },
  });
  await service.ready();
  const next = (test: (build: IndexBuild) => boolean) =>
    new Promise<IndexBuild>((resolve) => {
      const done = builds.find(test);
      if (done) resolve(done);
      else waiting.push({ test, resolve });
    });
  return { service, builds, next };
}

describe('watch mode', () => {
  it('answers from an edited file once the service has indexed it again', async () => {
    const { service: running, next } = await startWatching();
    const before = await ask(running, 'How often are webhooks retried?');
    expect(before.text).toContain('five times');

    const file = join(docs, 'nested.mdx');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('retried five times', 'retried eleven times, then parked'),
    );
    const update = await next(
      (build) => build.how === 'updated' && build.changedFiles.includes('0:nested.mdx'),
    );
    expect(update.how).toBe('updated');
    expect(update.parsedFiles).toBe(1);

    const after = await ask(running, 'How often are webhooks retried?');
    expect(after.text).toContain('eleven times');
    expect(after.text).not.toContain('five times');
  });

  it('takes in a new page and drops a removed one', async () => {
    const { service: running, next } = await startWatching(join(root, 'data'));
    writeFileSync(
      join(docs, 'billing.mdx'),
      '---\ntitle: Billing\n---\n\n## Invoices\n\nInvoices are sent on the first day of each month by email.\n',
    );
    await next((build) => build.changedFiles.includes('0:billing.mdx'));
    const invoices = await ask(running, 'When are invoices sent?');
    expect(invoices.searchResults[0]?.path).toBe('/billing');
    expect(invoices.text).toContain('first day of each month');

    rmSync(join(docs, 'billing.mdx'));
    const removed = await next(
      (build) => build.changedFiles.includes('0:billing.mdx') && !build.index.page('/billing'),
    );
    expect(removed.index.pages.map((page) => page.path)).not.toContain('/billing');
    const gone = await ask(running, 'When are invoices sent?');
    expect(gone.searchResults.map((result) => result.path)).not.toContain('/billing');
  });
});
