import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Header } from 'tar';
import {
  createTar,
  createTarGz,
  readTar,
  readTarGz,
} from '../../packages/docs-assistant-server/src/static-export/bundle';
import { tempDir } from './helpers';

const text = (s: string) => new TextEncoder().encode(s);

describe('deterministic tar.gz', () => {
  const entries = [
    { path: 'b/page.html', data: text('<p>b</p>') },
    { path: 'index.html', data: text('<p>home</p>') },
    { path: 'a.json', data: text('{}') },
    { path: 'empty.txt', data: new Uint8Array() },
  ];

  it('gives the same bytes for the same files in any order', () => {
    const one = createTarGz(entries);
    const two = createTarGz([...entries].reverse());
    expect(Buffer.compare(one, two)).toBe(0);
    // gzip header: bytes 4–7 are the mtime, which must be zero.
    expect([...one.subarray(4, 8)]).toEqual([0, 0, 0, 0]);
    expect(createTarGz([{ path: 'index.html', data: text('<p>changed</p>') }])).not.toEqual(one);
  });

  it('round-trips sorted entries with fixed metadata', () => {
    const read = readTarGz(createTarGz(entries));
    expect(read.map((e) => e.path)).toEqual(['a.json', 'b/page.html', 'empty.txt', 'index.html']);
    expect(new TextDecoder().decode(read.find((e) => e.path === 'index.html')!.data)).toBe('<p>home</p>');
    const tar = createTar(entries);
    // The first header as any tar reads it: 2000-01-01, owner 0 with no names, rw-r--r--.
    const first = new Header(tar.subarray(0, 512));
    expect(first.cksumValid).toBe(true);
    expect(first.mtime?.getTime()).toBe(946_684_800_000);
    expect([first.uid, first.gid, first.uname, first.gname, first.mode]).toEqual([0, 0, '', '', 0o644]);
  });

  it('is a ustar archive that system tar lists and extracts', () => {
    const dir = tempDir();
    try {
      const longPath = `${'deep/'.repeat(25)}page.html`;
      const file = join(dir.path, 'site.tar.gz');
      writeFileSync(file, createTarGz([...entries, { path: longPath, data: text('long') }]));
      const listed = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).trim().split('\n');
      expect(listed).toEqual(['a.json', 'b/page.html', longPath, 'empty.txt', 'index.html']);
      execFileSync('tar', ['-xzf', file, '-C', dir.path]);
      expect(execFileSync('cat', [join(dir.path, longPath)], { encoding: 'utf8' })).toBe('long');
    } finally {
      dir.remove();
    }
  });

  it('refuses unsafe or duplicate paths', () => {
    for (const path of ['../x', '/abs', 'a//b', 'a/./b', '']) {
      expect(() => createTar([{ path, data: text('x') }])).toThrow(/unsafe bundle entry path/);
    }
    expect(() => createTar([entries[0]!, entries[0]!])).toThrow(/duplicate bundle entry "b\/page.html"/);
  });

  it('rejects corrupt and truncated archives with a clear error', () => {
    expect(() => readTarGz(text('not gzip'))).toThrow(/not a gzip archive/);
    const tar = createTar(entries);
    const corrupt = Buffer.from(tar);
    corrupt[0] = 0x7a;
    expect(() => readTar(corrupt)).toThrow(/checksum mismatch/);
    expect(() => readTar(tar.subarray(0, 1024))).toThrow(/truncated tar/);
    expect(gunzipSync(createTarGz(entries))).toEqual(tar);
  });
});
