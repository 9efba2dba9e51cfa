import { readFileSync, statSync } from 'node:fs';
import type { Flavor } from '@orchard/meta';
import {
  createResourceTransformers,
  isEncryptionConfigError,
  maxEncryptionConfigBytes,
  parseEncryptionConfiguration,
  type ResourceTransformers,
} from '@orchard/store-encryption';

/**
 * Reads `--encryption-provider-config FILE`: an EncryptionConfiguration in the flavor's
 * `apiserver.config.<domain>/v1` group, validated at load. Throws an `Error` whose message names
 * the flag, the file and the bad field (never a secret), so a bad file stops the start.
 */
export function loadEncryptionProviderConfig(path: string, flavor: Flavor): ResourceTransformers {
  const flag = '--encryption-provider-config';
  let text: string;
  try {
    const size = statSync(path).size;
    if (size > maxEncryptionConfigBytes)
      throw new Error(`larger than ${maxEncryptionConfigBytes} bytes (${size})`);
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`${flag}: cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    return createResourceTransformers(parseEncryptionConfiguration(text, { file: path, flavor }));
  } catch (e) {
    if (isEncryptionConfigError(e)) {
      const m = e.message.startsWith(path) ? e.message : `${path}: ${e.message}`;
      throw new Error(`${flag}: ${m}`);
    }
    throw e;
  }
}
