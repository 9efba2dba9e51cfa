import { StoreError } from './errors.js';
import type { KeyValue, WriteOptions } from './store.js';

/**
 * The current value an update or delete of `key` works on, as every backend checks it: absent is
 * `NotFound`; at another revision than `options.expectedRevision` (when set) is `Conflict` carrying
 * the current revision.
 */
export function currentForWrite(current: KeyValue | undefined, key: string, options: WriteOptions): KeyValue {
  if (!current) throw new StoreError('NotFound', `key ${key} not found`, key);
  if (options.expectedRevision !== undefined && options.expectedRevision !== current.modRevision) {
    throw new StoreError(
      'Conflict',
      `key ${key} is at revision ${current.modRevision}, expected ${options.expectedRevision}`,
      key,
      current.modRevision,
    );
  }
  return current;
}
