import type { ApiServer } from '@orchard/apiserver';

type Snapshot = ReadonlyMap<string, Uint8Array>;

/** Every key and value of the server's store (one list). */
export async function snapshotServer(server: ApiServer): Promise<Snapshot> {
  const { kvs } = await server.storage.list('');
  return new Map(kvs.map((kv) => [kv.key, kv.value]));
}

/**
 * Whether two stored values are equal: most are the very array the snapshot holds (the memory store
 * hands out what it stores), the rest are compared natively (a per-byte `every` took ~1.8 ms of a
 * reset: ~150 values of 0.3–2 KB each).
 */
const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a === b || (a.byteLength === b.byteLength && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b));

const ignoreGone = (e: unknown) => {
  if ((e as { code?: unknown }).code === 'NotFound' || (e as { code?: unknown }).code === 'AlreadyExists')
    return;
  throw e;
};

/**
 * Puts the store back to `snapshot` through ordinary store writes (so watches, watch caches and the
 * controllers see them, and revisions keep increasing): keys written since are deleted, changed keys
 * get their old value, deleted keys come back. Controllers may react (recreate a `default`
 * ServiceAccount …), so it repeats after they settle until nothing differs, at most `rounds` times.
 */
export async function resetServer(server: ApiServer, snapshot: Snapshot, rounds = 5): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    const { kvs } = await server.storage.list('');
    const now = new Map(kvs.map((kv) => [kv.key, kv.value]));
    let changed = 0;
    for (const [key, value] of now) {
      const old = snapshot.get(key);
      if (old === undefined) {
        changed++;
        await server.storage.delete(key).catch(ignoreGone);
      } else if (!sameBytes(old, value)) {
        changed++;
        await server.storage.update(key, () => old).catch(ignoreGone);
      }
    }
    for (const [key, value] of snapshot)
      if (!now.has(key)) {
        changed++;
        await server.storage.create(key, value).catch(ignoreGone);
      }
    if (changed === 0) return;
    await server.lifecycle.idle();
  }
  throw new Error(
    `reset: the store still differs from its start after ${rounds} rounds (a controller keeps writing)`,
  );
}
