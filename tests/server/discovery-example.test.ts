/**
 * examples/ai-sdk-5-chat/chat.mjs runs as a reader would run it: a Node process talking to the
 * service over HTTP with AI SDK 5's DefaultChatTransport, two questions on one thread.
 */
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ASSISTANT_KEY, DOMAIN, type RunningService, startService } from './helpers';

const SCRIPT = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'examples',
  'ai-sdk-5-chat',
  'chat.mjs',
);
const run = promisify(execFile);

let running: RunningService;
beforeAll(async () => {
  running = await startService({ siteUrl: 'https://docs.acme.test' });
});
afterAll(async () => {
  await running.close();
});

it('asks two questions on one thread and prints the answers with their sources', async () => {
  const { stdout } = await run(
    process.execPath,
    [SCRIPT, 'How do I enable dark mode?', 'And how do I undo that?'],
    {
      env: {
        ...process.env,
        DOCS_ASSISTANT_URL: running.url,
        DOCS_ASSISTANT_DOMAIN: DOMAIN,
        DOCS_ASSISTANT_KEY: ASSISTANT_KEY,
      },
    },
  );
  expect(stdout).toContain('> How do I enable dark mode?');
  expect(stdout).toContain('> And how do I undo that?');
  expect(stdout).toMatch(/source: .*<https:\/\/docs\.acme\.test\/guides\/theming#/);
  const threads = [...stdout.matchAll(/^thread: (\S+)$/gm)].map((match) => match[1]);
  expect(threads).toHaveLength(2);
  expect(threads[0]).not.toBe('undefined');
  expect(threads[1]).toBe(threads[0]);
});

it('says which settings are missing', async () => {
  const failure = await run(process.execPath, [SCRIPT], {
    env: { ...process.env, DOCS_ASSISTANT_DOMAIN: '', DOCS_ASSISTANT_KEY: '' },
  }).catch((error: { code: number; stderr: string }) => error);
  expect(failure).toMatchObject({ code: 2 });
  expect((failure as { stderr: string }).stderr).toMatch(/DOCS_ASSISTANT_DOMAIN and DOCS_ASSISTANT_KEY/);
});
