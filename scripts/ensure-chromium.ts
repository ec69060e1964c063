/**
 * First step of `npm test`: the browser tests drive Debian's Chromium (`/usr/bin/chromium`, or
 * `CHROMIUM_PATH`) with playwright-core, which never downloads a browser. When it is missing, install
 * it with apt as `.ci/run` does if this process may (root on a Debian-like system); otherwise stop
 * with the one command that installs it, before minutes of other tests run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function canInstall(): boolean {
  return process.getuid?.() === 0 && existsSync('/usr/bin/apt-get') && !process.env.CHROMIUM_PATH;
}

if (!existsSync(path)) {
  if (!canInstall()) {
    console.error(
      `Chromium is missing at ${path}; the browser tests need it.\n` +
        'Install it with:  sudo apt-get update && sudo apt-get install -y chromium\n' +
        '(or point CHROMIUM_PATH at a Chromium or Chrome binary), then run npm test again.',
    );
    process.exit(1);
  }
  console.log(`Chromium is missing at ${path}: installing Debian's chromium with apt-get…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'inherit', env });
}
