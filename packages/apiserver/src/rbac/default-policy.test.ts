import { type ApiObject, kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { aggregatedRules, type ClusterRole, sameRules, sharedDefaultPolicy } from '@orchard/rbac';
import { createMemoryStore, type Store } from '@orchard/store';
import { describe, expect, it } from 'vitest';
import { createApiServer } from '../server.js';
import { ObjectStore } from '../storage/object-store.js';
import { encodeBlock, encodeDefault, fillBlock, fillDefault, jsonBytes } from './encoded-default.js';
import { rbacGroup } from './rbac-resources.js';

describe.each([orchFlavor, kubernetesFlavor])('default RBAC policy at start ($domain)', (flavor) => {
  it('creates every aggregated ClusterRole with the rules aggregation settles on', async () => {
    const server = createApiServer({ flavor });
    try {
      await server.ready;
      const prefix = server.objects.prefix({
        group: rbacGroup(flavor),
        resource: 'clusterroles',
        namespace: '',
      });
      const all = (await server.objects.list(prefix)).items as unknown as ClusterRole[];
      const aggregated = all.filter((r) => r.aggregationRule);
      expect(aggregated.map((r) => r.metadata.name)).toEqual(
        expect.arrayContaining(['admin', 'edit', 'view']),
      );
      for (const role of aggregated) expect(sameRules(role.rules, aggregatedRules(role, all))).toBe(true);
      // `admin` aggregates `edit`, itself aggregated: the nested rules are there from the start.
      const admin = aggregated.find((r) => r.metadata.name === 'admin')!;
      const edit = aggregated.find((r) => r.metadata.name === 'edit')!;
      expect((edit.rules ?? []).length).toBeGreaterThan(0);
      expect((admin.rules ?? []).length).toBeGreaterThan((edit.rules ?? []).length);
    } finally {
      await server.close();
    }
  });

  it('writes a fresh store one createAll per kind, the same objects a create each gives', async () => {
    const calls = { createAll: 0, create: 0 };
    const batching = createMemoryStore();
    const createAll = batching.createAll!.bind(batching);
    batching.createAll = (entries) => {
      calls.createAll++;
      return createAll(entries);
    };
    // The same store without createAll: the default policy takes a create per object.
    const inner = createMemoryStore();
    const oneByOne: Store = {
      currentRevision: () => inner.currentRevision(),
      compactedRevision: () => inner.compactedRevision(),
      get: (k, o) => inner.get(k, o),
      list: (p, o) => inner.list(p, o),
      create: (k, v) => {
        if (k.startsWith(`/${rbacGroup(flavor)}/`)) calls.create++;
        return inner.create(k, v);
      },
      update: (k, t, o) => inner.update(k, t, o),
      delete: (k, o) => inner.delete(k, o),
      watch: (p, o) => inner.watch(p, o),
      compact: (r) => inner.compact(r),
      close: () => inner.close(),
    };
    const a = createApiServer({ flavor, store: batching });
    const b = createApiServer({ flavor, store: oneByOne });
    try {
      await Promise.all([a.ready, b.ready]);
      const kinds = sharedDefaultPolicy(flavor);
      expect(calls.createAll).toBe(4);
      expect(calls.create).toBe(
        kinds.clusterRoles.length +
          kinds.clusterRoleBindings.length +
          kinds.roles.length +
          kinds.roleBindings.length,
      );
      const prefix = `/${rbacGroup(flavor)}/`;
      const [kvsA, kvsB] = [(await a.storage.list(prefix)).kvs, (await b.storage.list(prefix)).kvs];
      expect(kvsA.map((kv) => kv.key)).toEqual(kvsB.map((kv) => kv.key));
      const plain = (kv: (typeof kvsA)[number], objects: typeof a.objects) => {
        const { uid, creationTimestamp, resourceVersion, ...meta } = objects.decode(kv).metadata;
        expect(uid).toMatch(/^[0-9a-f-]{36}$/);
        expect(Date.parse(creationTimestamp!)).not.toBeNaN();
        expect(resourceVersion).toBe(String(kv.modRevision));
        return { ...objects.decode(kv), metadata: meta };
      };
      for (const [i, kv] of kvsA.entries())
        expect(plain(kv, a.objects), kv.key).toEqual(plain(kvsB[i]!, b.objects));
      // A restart over the batch-written store reconciles and writes nothing.
      const before = await batching.currentRevision();
      await a.close();
      const again = createApiServer({ flavor, store: batching });
      await again.ready;
      expect(calls.createAll).toBe(4);
      expect(await batching.currentRevision()).toBe(before);
      await again.close();
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe.each([orchFlavor, kubernetesFlavor])(
  'default RBAC objects as encoded templates ($domain)',
  (flavor) => {
    const policy = sharedDefaultPolicy(flavor);
    const all = [
      ...policy.clusterRoles,
      ...policy.clusterRoleBindings,
      ...policy.roles,
      ...policy.roleBindings,
    ];
    const text = new TextDecoder();

    it('fill in to the bytes ObjectStore.encode gives the fresh object', () => {
      const objects = new ObjectStore(createMemoryStore());
      const uid = '1f0c7c51-7bd4-4d53-9d0e-9d8c5d9b6f10';
      const at = '2030-01-02T03:04:05Z';
      expect(all.length).toBeGreaterThan(100);
      for (const o of all) {
        const t = encodeDefault(o);
        expect(t, o.metadata.name).toBeDefined();
        const fresh = {
          ...o,
          metadata: { ...o.metadata, uid, creationTimestamp: at },
        } as unknown as ApiObject;
        expect(text.decode(fillDefault(t!, uid, jsonBytes(at)))).toBe(text.decode(objects.encode(fresh)));
      }
      // A uid outside plain ASCII (escapes, multi-byte UTF-8) is encoded as `encode` would.
      const odd = 'é"\\\n-x';
      const first = all[0]!;
      const fresh = {
        ...first,
        metadata: { ...first.metadata, uid: odd, creationTimestamp: at },
      } as unknown as ApiObject;
      expect(text.decode(fillDefault(encodeDefault(first)!, odd, jsonBytes(at)))).toBe(
        text.decode(objects.encode(fresh)),
      );
    });

    it('fill in as one block to the same bytes, or decline a uid or time of another width or with escapes', () => {
      const templates = all.map((o) => encodeDefault(o)!);
      const at = jsonBytes('2030-01-02T03:04:05Z');
      const block = encodeBlock(templates, at.length);
      const uids = all.map((_, i) => `1f0c7c51-7bd4-4d53-9d0e-${String(i).padStart(12, '0')}`);
      const values = fillBlock(block, uids, at)!;
      expect(values.length).toBe(all.length);
      for (const [i, t] of templates.entries())
        expect(text.decode(values[i]), all[i]!.metadata.name).toBe(text.decode(fillDefault(t, uids[i]!, at)));
      // The block is a template: filling it again gives fresh bytes, the first result untouched.
      const again = fillBlock(
        block,
        uids.map((u) => u.replace('1f0c', 'aaaa')),
        at,
      )!;
      expect(text.decode(again[0]).includes('"aaaa7c51')).toBe(true);
      expect(text.decode(values[0]).includes('"1f0c7c51')).toBe(true);
      const swap = (i: number, u: string) => uids.map((x, j) => (j === i ? u : x));
      expect(fillBlock(block, swap(3, 'é"\\\n-x'), at)).toBeUndefined();
      expect(fillBlock(block, swap(3, `${uids[3]!.slice(0, 35)}"`), at)).toBeUndefined();
      expect(fillBlock(block, swap(3, `${uids[3]!}0`), at)).toBeUndefined();
      expect(fillBlock(block, uids, jsonBytes('2030-01-02T03:04:05.5Z'))).toBeUndefined();
      expect(fillBlock(block, uids.slice(1), at)).toBeUndefined();
    });

    it('refuses an object whose own text holds a placeholder (it is then encoded as usual)', () => {
      const role = policy.clusterRoles[0]!;
      const odd = { ...role, metadata: { ...role.metadata, labels: { x: 'orchard:default-policy:uid' } } };
      expect(encodeDefault(odd)).toBeUndefined();
    });

    it('hand the caches, without parsing, exactly the objects decoding the stored bytes gives', async () => {
      const a = createApiServer({ flavor });
      const b = createApiServer({ flavor });
      try {
        await Promise.all([a.ready, b.ready]);
        const prefix = `/${rbacGroup(flavor)}/`;
        const [kvsA, kvsB] = [(await a.storage.list(prefix)).kvs, (await b.storage.list(prefix)).kvs];
        expect(kvsA.length).toBe(all.length);
        for (const [i, kv] of kvsA.entries()) {
          const shared = a.objects.decodeShared(kv);
          expect(Object.isFrozen(shared) && Object.isFrozen(shared.metadata), kv.key).toBe(true);
          expect(JSON.stringify(shared), kv.key).toBe(JSON.stringify(a.objects.decode(kv)));
          // Built from the per-process template (its frozen parts are shared), not parsed.
          const other = b.objects.decodeShared(kvsB[i]!);
          expect(other.metadata.uid).not.toBe(shared.metadata.uid);
          const body = Object.keys(shared).find((f) => f !== 'metadata' && typeof shared[f] === 'object');
          if (body) expect(other[body], kv.key).toBe(shared[body]);
        }
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    it('give each server its own objects (uids differ, a change in one is not seen by the other)', async () => {
      const a = createApiServer({ flavor });
      const b = createApiServer({ flavor });
      try {
        await Promise.all([a.ready, b.ready]);
        const key = a.objects.key(
          { group: rbacGroup(flavor), resource: 'clusterroles', namespace: '' },
          'view',
        );
        const [va, vb] = [(await a.objects.get(key)).object!, (await b.objects.get(key)).object!];
        expect(va.metadata.uid).not.toBe(vb.metadata.uid);
        expect({ ...va, metadata: {} }).toEqual({ ...vb, metadata: {} });
        await a.objects.update(key, (cur) => ({
          ...cur,
          metadata: { ...cur.metadata, labels: { only: 'a' } },
        }));
        expect((await b.objects.get(key)).object!.metadata.labels?.only).toBeUndefined();
        expect(
          sharedDefaultPolicy(flavor).clusterRoles.find((r) => r.metadata.name === 'view')!.metadata.labels,
        ).not.toHaveProperty('only');
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });
  },
);
