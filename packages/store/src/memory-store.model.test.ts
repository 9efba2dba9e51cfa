import { describe, expect, it } from 'vitest';
import { createMemoryStore } from './memory-store.js';

/** One version of a key in the model: a value (with its create revision) or a deletion. */
interface ModelVersion {
  readonly rev: number;
  readonly value?: Uint8Array;
  readonly create?: number;
}

const turn = () => new Promise((r) => setImmediate(r));

/**
 * The memory store against a plain model of MVCC history, under random writes, compactions at
 * random revisions, reads at random past revisions, watch backlogs and turns of the event loop in
 * between (so the background packing interleaves with everything). Seeded, so a failure replays.
 */
describe('memory store against a model', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: every read and watch matches the model`, async () => {
      let s = seed;
      const rnd = (n: number) => {
        s = (s * 1103515245 + 12345) % 2147483648;
        return s % n;
      };
      const st = createMemoryStore();
      const history = new Map<string, ModelVersion[]>();
      let rev = 0;
      let compacted = 0;
      const keys = Array.from({ length: 500 }, (_, i) => `/k/${String(i).padStart(4, '0')}`);
      const current = (k: string) => history.get(k)?.at(-1);
      const valueAt = (k: string, r: number) => {
        let v: ModelVersion | undefined;
        for (const x of history.get(k) ?? []) if (x.rev <= r) v = x;
        return v?.value ? v : undefined;
      };
      const readable = () => Math.max(1, compacted + rnd(rev - compacted + 1));
      for (let step = 0; step < 3000; step++) {
        const op = rnd(100);
        const k = keys[rnd(keys.length)]!;
        const value = Uint8Array.from({ length: rnd(5) === 0 ? 0 : rnd(40) }, () => rnd(256));
        if (op < 45) {
          const c = current(k);
          if (c?.value) await st.update(k, () => value);
          else await st.create(k, value);
          rev++;
          const versions = history.get(k) ?? [];
          versions.push({ rev, value, create: c?.value ? c.create : rev });
          history.set(k, versions);
        } else if (op < 55) {
          if (!current(k)?.value) continue;
          await st.delete(k);
          rev++;
          history.get(k)!.push({ rev });
        } else if (op < 60) {
          if (rev === 0) continue;
          const r = readable();
          await st.compact(r);
          compacted = Math.max(compacted, r);
        } else if (op < 75) {
          for (let i = rnd(3); i > 0; i--) await turn();
        } else if (op < 90) {
          if (rev === 0) continue;
          const r = readable();
          const got = (await st.get(k, { atRevision: r })).kv;
          const want = valueAt(k, r);
          expect(got?.value, `get ${k} at ${r}`).toEqual(want?.value);
          if (want) expect([got?.createRevision, got?.modRevision]).toEqual([want.create, want.rev]);
        } else if (op < 95) {
          if (rev === 0) continue;
          const r = readable();
          const row = (key: string, mod: number, create: number, v: Uint8Array) => [
            key,
            mod,
            create,
            Array.from(v).join(','),
          ];
          const got = (await st.list('/k/', { atRevision: r })).kvs.map((kv) =>
            row(kv.key, kv.modRevision, kv.createRevision, kv.value),
          );
          const want = keys.flatMap((key) => {
            const v = valueAt(key, r);
            return v ? [row(key, v.rev, v.create!, v.value!)] : [];
          });
          expect(got).toEqual(want);
        } else {
          const from = compacted + rnd(rev - compacted + 1);
          const abort = new AbortController();
          const events = st
            .watch('/k/', { fromRevision: from, signal: abort.signal })
            [Symbol.asyncIterator]();
          for (let r = from + 1; r <= rev; r++) expect((await events.next()).value?.revision).toBe(r);
          abort.abort();
        }
        expect(await st.currentRevision()).toBe(rev);
      }
      // Everything compacted is packed in the end (white box: the set of keys still to pack).
      await st.compact(rev);
      const unpacked = (st as unknown as { unpacked: Set<string> }).unpacked;
      for (let i = 0; i < 100 && unpacked.size > 0; i++) await turn();
      expect(unpacked.size).toBe(0);
      await st.close();
    });
  }
});
