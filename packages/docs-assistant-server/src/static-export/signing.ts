/**
 * Presigned bundle links: `…/bundles/{jobId}.tar.gz?expires={unix ms}&signature={hex}` where the
 * signature is HMAC-SHA256 over the job id and the expiry. Whoever holds the link can download
 * until it expires, without a key: that is what a presigned link is for.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export function signBundleLink(secret: string, jobId: string, expires: number): string {
  return createHmac('sha256', secret).update(`static-export-bundle\n${jobId}\n${expires}`).digest('hex');
}

export function verifyBundleLink(secret: string, jobId: string, expires: number, signature: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(signature)) return false;
  const expected = Buffer.from(signBundleLink(secret, jobId, expires), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

/**
 * The secret links are signed with. Kept in the data folder (mode 0600) so links stay valid across
 * a restart; a fresh random one per process when there is no data folder.
 */
export async function loadSigningSecret(dataDir: string | undefined): Promise<string> {
  if (!dataDir) return randomBytes(32).toString('hex');
  const dir = join(dataDir, 'static-export');
  const file = join(dir, 'signing-secret');
  try {
    const existing = (await readFile(file, 'utf8')).trim();
    if (existing.length >= 32) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, secret, { mode: 0o600 });
  await rename(temp, file);
  return secret;
}
