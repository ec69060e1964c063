/**
 * No request amplifies: `llms-full.txt` of a site with a 10 MB page, asked for with 20 distinct
 * `Host` headers over real HTTP on 127.0.0.1, is built once (every answer carries the one build's
 * `ETag`), names none of those hosts, and the service's memory grows by a bounded amount; `/health`
 * is answered while the build runs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type RunningService, startService } from './helpers';

// Collects garbage on demand, so the heap read after it counts what is kept, not what is pending.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const MB = 1024 * 1024;
/** Bytes the heap may grow by over the 20 requests: one build of the 10 MB page, with room. */
const GROWTH_BOUND = 120 * MB;

function siteWithBigPage(): string {
  const docs = mkdtempSync(join(tmpdir(), 'da-amplify-'));
  onTestFinished(() => rmSync(docs, { recursive: true, force: true }));
  writeFileSync(join(docs, 'index.md'), '# Big site\n\nA site with one very large page.\n');
  mkdirSync(join(docs, 'guides'));
  for (let i = 0; i < 40; i++) {
    writeFileSync(
      join(docs, 'guides', `page-${i}.md`),
      `# Page ${i}\n\nInstalling part ${i} of the product.\n`,
    );
  }
  const paragraph =
    'The reference lists every option of the exporter with its default, its type and an example. ';
  const sections: string[] = ['# Reference', ''];
  for (let size = 0, i = 0; size < 10 * MB; i++) {
    const section = `## Option ${i}\n\n${paragraph.repeat(40)}\n`;
    sections.push(section);
    size += section.length;
  }
  writeFileSync(join(docs, 'reference.md'), sections.join('\n'));
  return docs;
}

/** A GET with a `Host` header of our choosing (fetch does not let one be set). */
function get(
  running: RunningService,
  path: string,
  host: string,
): Promise<{ status: number; etag: string | undefined; body: string }> {
  const url = new URL(running.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: url.hostname, port: url.port, path, headers: { Host: host } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            etag: response.headers.etag,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

// Twice: the first pass leaves what finalizers free for the second.
const heap = (): number => {
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
};

// 60 s a test: it takes 3-4 s, and over 20 s on two cores shared with five other test workers.
describe('llms-full.txt with 20 distinct Host headers on a site with a 10 MB page', {
  timeout: 60_000,
}, () => {
  it('is built once, names no request host, keeps memory bounded, and /health answers meanwhile', async () => {
    const running = await startService({ docs: siteWithBigPage(), siteUrl: 'https://docs.big.test' });
    onTestFinished(() => running.close());
    const before = heap();

    // While the first build runs, /health is answered before it ends (the build yields).
    const order: string[] = [];
    const first = get(running, '/llms-full.txt', 'first.example').then((response) => {
      order.push('llms-full');
      return response;
    });
    const health = await fetch(`${running.url}/health`);
    order.push('health');
    expect(health.status).toBe(200);
    const built = await first;
    expect(order).toEqual(['health', 'llms-full']);
    expect(built.status).toBe(200);
    expect(built.body.length).toBeGreaterThan(10 * MB);
    expect(built.etag).toBeTruthy();

    const etags = new Set<string | undefined>([built.etag]);
    for (let i = 0; i < 20; i++) {
      const host = `host-${i}.attacker.example`;
      const response = await get(running, '/llms-full.txt', host);
      expect(response.status).toBe(200);
      expect(response.body.includes(host)).toBe(false);
      expect(response.body.length).toBe(built.body.length);
      etags.add(response.etag);
    }
    // One build: every answer is the same build's.
    expect(etags.size).toBe(1);
    expect(built.body).toContain('Source: https://docs.big.test/reference.md');
    const growth = heap() - before;
    expect(growth).toBeLessThan(GROWTH_BOUND);

    // A client that has it gets 304 and no body.
    const again = await fetch(`${running.url}/llms-full.txt`, { headers: { 'If-None-Match': built.etag! } });
    expect(again.status).toBe(304);
  });
});
