/**
 * A throwaway PostgreSQL server for tests: Debian's binaries (`pg_config --bindir`, else
 * `/usr/lib/postgresql/<version>/bin`), `initdb` on a temporary folder and `pg_ctl` on a free port
 * of 127.0.0.1, stopped and removed at the end. `initdb` refuses to run as root, so as root the
 * cluster belongs to the `postgres` user and its commands run through `runuser`. Missing binaries
 * are installed with apt when this process may (root on Debian, as `.ci/run` does); otherwise the
 * error names the command that installs them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const INSTALL = 'sudo apt-get update && sudo apt-get install -y postgresql';

function findBinDir(): string | undefined {
  const hasInitdb = (dir: string) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));
  const fromConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (fromConfig.status === 0 && hasInitdb(fromConfig.stdout.trim())) return fromConfig.stdout.trim();
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions)
    if (hasInitdb(join(root, version, 'bin'))) return join(root, version, 'bin');
  return undefined;
}

const isRoot = () => process.getuid?.() === 0;

/** The PostgreSQL server binaries, installed with apt first when missing and this process may. */
export function postgresBinDir(): string {
  const found = findBinDir();
  if (found) return found;
  if (!isRoot() || !existsSync('/usr/bin/apt-get')) {
    throw new Error(
      `PostgreSQL's server binaries (initdb, pg_ctl) are missing; the storage tests start a throwaway server with them.\nInstall them with:  ${INSTALL}\nthen run the tests again.`,
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', 'postgresql'], { stdio: 'inherit', env });
  const installed = findBinDir();
  if (!installed) throw new Error(`apt-get installed postgresql, but no initdb was found; try: ${INSTALL}`);
  return installed;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface TestPostgres {
  /** URL of the `postgres` database (superuser, no password: trust on 127.0.0.1). */
  url: string;
  port: number;
  /** A fresh, empty database on this server, by URL. */
  createDatabase: (name: string) => Promise<string>;
  /** Stops the server (immediately, like a crash) and starts it again on the same port and data. */
  stopServer: () => void;
  startServer: () => void;
  /** Stops the server and removes its folder. */
  stop: () => void;
}

/**
 * Starts a PostgreSQL server for one test file. `durable: false` (the default) turns fsync off,
 * which is fine for a server that is thrown away; the benchmark keeps it on.
 */
export async function startTestPostgres(options: { durable?: boolean } = {}): Promise<TestPostgres> {
  const bin = postgresBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'da-postgres-'));
  const data = join(dir, 'data');
  const asOwner = (command: string, args: string[]) => {
    const run = isRoot()
      ? spawnSync('runuser', ['-u', 'postgres', '--', join(bin, command), ...args], { encoding: 'utf8' })
      : spawnSync(join(bin, command), args, { encoding: 'utf8' });
    if (run.status !== 0) {
      throw new Error(`${command} ${args.join(' ')} failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
    }
  };
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  asOwner('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${dir}`,
    '-c max_connections=100',
    // Several test files run a server at once on a shared machine: keep each small.
    '-c shared_buffers=16MB',
    ...(options.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
  ].join(' ');
  const startServer = () =>
    asOwner('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'server.log'), '-w', 'start']);
  const stopServer = () => asOwner('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  startServer();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let stopped = false;
  return {
    url,
    port,
    createDatabase: async (name) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stopServer,
    startServer,
    stop: () => {
      if (stopped) return;
      stopped = true;
      try {
        stopServer();
      } catch {
        // Already stopped (a test stopped it): the folder goes all the same.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
