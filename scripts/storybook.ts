/**
 * `npm run storybook` on a port that is free: `PORT` when it is set (an error if it is taken, as
 * the user asked for that one), else 6006 when free, else any free port of 127.0.0.1. Storybook's
 * own `--port` would stop with "port in use" where another helper or a second checkout runs one.
 *
 *   npx tsx scripts/storybook.ts            # 6006, or a free port
 *   PORT=7000 npx tsx scripts/storybook.ts
 */
import { spawn } from 'node:child_process';
import { type AddressInfo, createServer } from 'node:net';

const HOST = '127.0.0.1';
const PREFERRED = 6006;

/** Resolves with the port bound, or undefined when `port` is taken. */
function tryPort(port: number): Promise<number | undefined> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(undefined));
    server.listen(port, HOST, () => {
      const bound = (server.address() as AddressInfo).port;
      server.close(() => done(bound));
    });
  });
}

async function choosePort(): Promise<number> {
  const asked = process.env.PORT;
  if (asked !== undefined && asked !== '') {
    const port = Number(asked);
    if (!/^\d+$/.test(asked) || port < 1 || port > 65535) {
      throw new Error(`PORT must be a whole number from 1 to 65535 (got "${asked}").`);
    }
    if ((await tryPort(port)) === undefined) {
      throw new Error(
        `Port ${port} on ${HOST} is in use; set PORT to another one, or leave it out for a free one.`,
      );
    }
    return port;
  }
  return (await tryPort(PREFERRED)) ?? (await tryPort(0))!;
}

try {
  const port = await choosePort();
  const child = spawn(
    'npx',
    ['storybook', 'dev', '--port', String(port), '--host', HOST, '--no-open', '--exact-port'],
    {
      stdio: 'inherit',
    },
  );
  child.once('exit', (code) => process.exit(code ?? 1));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}
