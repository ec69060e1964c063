/** A service process of `fixtures/storage-service.ts`, and waiting for the lines it prints. */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  /** Resolves with the first printed line matching `pattern` (also one printed before the call). */
  waitFor: (pattern: RegExp) => Promise<RegExpExecArray>;
  /** The URL it serves at (once it printed `listening`). */
  url: () => Promise<string>;
  /** What it wrote to stderr (its warnings). */
  log: () => string;
  kill9: () => Promise<void>;
  stop: () => Promise<void>;
}

export function startServiceProcess(options: Record<string, unknown>): ServiceProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'tests/server/fixtures/storage-service.ts', JSON.stringify(options)],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  const waiters: { pattern: RegExp; resolve: (m: RegExpExecArray) => void; reject: (e: Error) => void }[] =
    [];
  const check = () => {
    for (const waiter of [...waiters]) {
      const match = waiter.pattern.exec(out);
      if (match) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  };
  child.stdout!.on('data', (data) => {
    out += data;
    check();
  });
  child.stderr!.on('data', (data) => {
    err += data;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code, signal) => {
    for (const waiter of waiters.splice(0)) {
      waiter.reject(
        new Error(`the service exited (${code ?? signal}) before printing ${waiter.pattern}:\n${err}`),
      );
    }
  });
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        const match = pattern.exec(out);
        return match ? resolve(match) : reject(new Error(`the service has exited:\n${err}`));
      }
      waiters.push({ pattern, resolve, reject });
      check();
    });
  return {
    child,
    waitFor,
    url: async () => (await waitFor(/listening (\S+)/))[1]!,
    log: () => err,
    kill9: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
