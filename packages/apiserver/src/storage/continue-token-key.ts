import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../tls/tls-dir.js';

/** The key file in a data directory: 32 random bytes, hex, mode 0600. */
export const continueTokenKeyFile = 'continue-token.key';

/**
 * The continue-token signing key of a data directory, created on first use. Kept beside the durable
 * store so a list token handed out before a restart still continues (upstream's tokens carry no
 * signature and survive restarts likewise); a malformed file is an error naming it.
 */
export async function loadOrCreateContinueTokenKey(dataDir: string): Promise<Uint8Array> {
  const file = join(dataDir, continueTokenKeyFile);
  let text: string | undefined;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as { code?: string }).code !== 'ENOENT')
      throw new Error(`${file}: cannot be read: ${(e as Error).message}`);
  }
  if (text !== undefined) {
    const hex = text.trim();
    if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`${file}: expected 64 hex digits (a 32-byte key)`);
    return new Uint8Array(Buffer.from(hex, 'hex'));
  }
  const key = new Uint8Array(randomBytes(32));
  await writeFileAtomic(file, `${Buffer.from(key).toString('hex')}\n`, 0o600);
  return key;
}
