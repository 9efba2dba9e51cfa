import { type ApiObject, type Flavor, newUid, nowRfc3339, type StoredObject } from '@orchard/meta';
import { jsonEqual } from '@orchard/meta/internal';
import {
  aggregatedRules,
  autoupdateAnnotation,
  type ClusterRole,
  type PolicyRule,
  type Subject,
  sameRules,
  sharedDefaultPolicy,
} from '@orchard/rbac';
import { isStoreError, type KeyValue } from '@orchard/store';
import type { ServerState } from '../state.js';
import {
  createByteArena,
  decodedDefault,
  type EncodedBlock,
  type EncodedDefault,
  encodeBlock,
  encodeDefault,
  fillBlock,
  fillDefault,
  jsonBytes,
} from './encoded-default.js';
import { rbacGroup } from './rbac-resources.js';

type Obj = Record<string, any>;

const key = (x: unknown) => JSON.stringify(x);

/** `existing` plus the entries of `expected` it lacks; `existing` itself (even null) when it lacks none. */
function union<T>(
  existing: readonly T[] | null | undefined,
  expected: readonly T[] | null | undefined,
  id: (t: T) => string,
): readonly T[] | null | undefined {
  const seen = new Set((existing ?? []).map(id));
  const missing = (expected ?? []).filter((x) => !seen.has(id(x)));
  return missing.length === 0 ? existing : [...(existing ?? []), ...missing];
}
const ruleId = (r: PolicyRule) =>
  key([r.verbs, r.apiGroups ?? [], r.resources ?? [], r.resourceNames ?? [], r.nonResourceURLs ?? []]);
const subjectId = (s: Subject) => key([s.kind, s.apiGroup ?? '', s.name, s.namespace ?? '']);

/**
 * Upstream's reconciliation of one default object with what is stored: missing labels, annotations,
 * rules (or, for an aggregated role, selectors) and subjects are added; nothing is removed. Returns
 * `undefined` when nothing changes, `'recreate'` when a binding's roleRef differs (it is immutable).
 */
function reconciled(
  existing: StoredObject,
  expected: Obj,
  binding: boolean,
): ApiObject | 'recreate' | undefined {
  const out: Obj = { ...existing, metadata: { ...existing.metadata } };
  for (const field of ['labels', 'annotations'] as const) {
    const want = expected.metadata[field] ?? {};
    if (Object.keys(want).length > 0) out.metadata[field] = { ...want, ...(existing.metadata[field] ?? {}) };
  }
  if (binding) {
    if (key(existing.roleRef) !== key(expected.roleRef)) return 'recreate';
    const subjects = union(existing.subjects as Subject[], expected.subjects, subjectId);
    if (subjects !== existing.subjects) out.subjects = subjects;
  } else if ((expected as ClusterRole).aggregationRule) {
    const selectors = union(
      (existing.aggregationRule as Obj | undefined)?.clusterRoleSelectors,
      expected.aggregationRule.clusterRoleSelectors,
      key,
    );
    if (selectors !== (existing.aggregationRule as Obj | undefined)?.clusterRoleSelectors)
      out.aggregationRule = { ...(existing.aggregationRule ?? {}), clusterRoleSelectors: selectors };
  } else {
    const rules = union(existing.rules as PolicyRule[], expected.rules, ruleId);
    if (rules !== existing.rules) out.rules = rules;
  }
  // Semantic comparison: a restart that changes nothing writes nothing (no new revision).
  return jsonEqual(out, existing) ? undefined : (out as ApiObject);
}

/** The settled rules of each default aggregated ClusterRole, per flavor (built once per process). */
const settledByFlavor = new WeakMap<Flavor, ReadonlyMap<string, readonly PolicyRule[]>>();

/**
 * The rules the aggregation controller gives each default aggregated ClusterRole when the default
 * ClusterRoles are all there are (`admin` includes `edit`, which aggregates too: repeated until
 * nothing changes). A new aggregated role is created with them, so a fresh start writes it once
 * instead of creating it empty for the controller to update; the controller still runs over what
 * is stored and adds the rules of any other labelled role.
 */
function settledAggregatedRules(flavor: Flavor): ReadonlyMap<string, readonly PolicyRule[]> {
  const cached = settledByFlavor.get(flavor);
  if (cached) return cached;
  const roles = new Map(sharedDefaultPolicy(flavor).clusterRoles.map((r) => [r.metadata.name, r]));
  const settled = new Map<string, readonly PolicyRule[]>();
  // Each round settles one more level of nesting; the default policy has two.
  for (let round = 0; round < 8; round++) {
    let changed = false;
    for (const [name, role] of roles) {
      const want = aggregatedRules(role, roles.values());
      if (want === undefined || sameRules(role.rules, want)) continue;
      roles.set(name, { ...role, rules: want });
      settled.set(name, want);
      changed = true;
    }
    if (!changed) break;
  }
  settledByFlavor.set(flavor, settled);
  return settled;
}

/**
 * Creates the default ClusterRoles, ClusterRoleBindings, Roles and RoleBindings of release 1.32
 * (translated to the flavor, `@orchard/rbac` `sharedDefaultPolicy`, built once per process) and
 * reconciles existing ones at every start, unless an object carries
 * `rbac.authorization.<domain>/autoupdate: "false"` (spec doc 2 §5.3). The objects of one kind are
 * written as one batch (concurrently: a durable store commits them together); kinds go in order,
 * roles before the bindings that name them.
 */
export async function reconcileDefaultPolicy(state: ServerState): Promise<void> {
  const group = rbacGroup(state.flavor);
  if (!state.registry.get(group, 'clusterroles')) return;
  const noUpdate = autoupdateAnnotation(state.flavor);
  const creationTimestamp = nowRfc3339();
  const stamp = { text: creationTimestamp, bytes: jsonBytes(creationTimestamp) };
  const alloc = createByteArena();
  for (const kind of defaultObjects(state.flavor)) {
    const { resource, binding, objects } = kind;
    // One list of the kind's keys instead of a read per default object (a fresh store has none).
    const stored = await storedByKey(state, group, resource);
    if (stored.size === 0 && (await createKind(state, group, kind, stamp, alloc))) continue;
    const results = await Promise.allSettled(
      objects.map(({ expected, encoded }) =>
        reconcileOne(state, group, resource, binding, expected, encoded, stamp, noUpdate, alloc, stored),
      ),
    );
    // As one object after the other did: the first failure (in policy order) fails the start.
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

/** The stored objects of one resource (every namespace) by key, still encoded. */
async function storedByKey(
  state: ServerState,
  group: string,
  resource: string,
): Promise<Map<string, KeyValue>> {
  const { kvs } = await state.objects.store.list(state.objects.prefix({ group, resource, namespace: '' }));
  return new Map(kvs.map((kv) => [kv.key, kv]));
}

/** One kind of default object, in policy order, with its storage bytes (`defaultObjects`). */
interface DefaultKind {
  readonly resource: string;
  readonly binding: boolean;
  readonly objects: readonly { readonly expected: Obj; readonly encoded: EncodedDefault | undefined }[];
}

/** The default objects of each flavor, settled and encoded once per process (they are frozen). */
const defaultsByFlavor = new WeakMap<Flavor, readonly DefaultKind[]>();

/**
 * The default objects of release 1.32 under `flavor` by kind (roles before the bindings that name
 * them): aggregated ClusterRoles with their settled rules, each with its storage-bytes template.
 */
function defaultObjects(flavor: Flavor): readonly DefaultKind[] {
  const cached = defaultsByFlavor.get(flavor);
  if (cached) return cached;
  const policy = sharedDefaultPolicy(flavor);
  const settled = settledAggregatedRules(flavor);
  const kind = (resource: string, binding: boolean, list: readonly Obj[]): DefaultKind => ({
    resource,
    binding,
    objects: list.map((o) => {
      const expected = withSettledRules(o, resource, settled);
      return { expected, encoded: encodeDefault(expected) };
    }),
  });
  const kinds = [
    kind('clusterroles', false, policy.clusterRoles),
    kind('clusterrolebindings', true, policy.clusterRoleBindings),
    kind('roles', false, policy.roles),
    kind('rolebindings', true, policy.roleBindings),
  ];
  defaultsByFlavor.set(flavor, kinds);
  return kinds;
}

/**
 * A fresh store's default objects of one kind in one `Store.createAll`: one write instead of a
 * create each, which was the larger part of a warm start's work. False, with nothing written, when
 * the store has no `createAll`, an object has no template, or a key exists after all (another server
 * wrote it since the list): the caller then reconciles object by object.
 */
async function createKind(
  state: ServerState,
  group: string,
  kind: DefaultKind,
  creationTimestamp: { readonly text: string; readonly bytes: Uint8Array },
  alloc: (size: number) => Uint8Array,
): Promise<boolean> {
  const { resource, objects } = kind;
  const store = state.objects.store;
  const templates = objects.map((o) => o.encoded).filter((t) => t !== undefined);
  if (!store.createAll || templates.length < objects.length) return false;
  const uids = objects.map(() => newUid());
  const values =
    fillBlock(blockOf(kind, templates, creationTimestamp.bytes.length), uids, creationTimestamp.bytes) ??
    templates.map((t, i) => fillDefault(t, uids[i]!, creationTimestamp.bytes, alloc));
  const entries = objects.map(({ expected }, i) => {
    const t = templates[i]!;
    const uid = uids[i]!;
    const value = values[i]!;
    const build = primeDefault(state, t, uid, creationTimestamp.text, value);
    const namespace: string = expected.metadata.namespace ?? '';
    return { key: state.objects.key({ group, resource, namespace }, expected.metadata.name), value, build };
  });
  let kvs: KeyValue[];
  try {
    kvs = await store.createAll(entries);
  } catch (e) {
    if (isStoreError(e, 'AlreadyExists')) return false;
    throw e;
  }
  for (const [i, kv] of kvs.entries()) state.objects.primeShared(kv, entries[i]!.build);
  return true;
}

/**
 * The decoded object of a default object's `bytes` (frozen, built without parsing), handed to any
 * reader that decodes those very bytes: the watch caches, the lifecycle controllers and the RBAC
 * informer may see the write before it returns. The writer passes it to `primeShared` after.
 */
function primeDefault(
  state: ServerState,
  t: EncodedDefault,
  uid: string,
  creationTimestamp: string,
  bytes: Uint8Array,
): (revision: number) => StoredObject {
  const build = (revision: number) => decodedDefault(t, uid, creationTimestamp, revision);
  state.objects.primeBytes(bytes, build);
  return build;
}

/** Each kind's block (`encodeBlock`), built on first use for the width a start's timestamps have. */
const blocks = new WeakMap<DefaultKind, EncodedBlock>();

function blockOf(kind: DefaultKind, templates: readonly EncodedDefault[], timeWidth: number): EncodedBlock {
  const cached = blocks.get(kind);
  if (cached?.timeWidth === timeWidth) return cached;
  const block = encodeBlock(templates, timeWidth);
  blocks.set(kind, block);
  return block;
}

/** Creates one default object, or reconciles the stored one with it. */
async function reconcileOne(
  state: ServerState,
  group: string,
  resource: string,
  binding: boolean,
  expected: Obj,
  encoded: EncodedDefault | undefined,
  creationTimestamp: { readonly text: string; readonly bytes: Uint8Array },
  noUpdate: string,
  alloc: (size: number) => Uint8Array,
  stored: ReadonlyMap<string, KeyValue>,
): Promise<void> {
  const namespace: string = expected.metadata.namespace ?? '';
  const k = state.objects.key({ group, resource, namespace }, expected.metadata.name);
  const fresh = () =>
    ({
      ...expected,
      metadata: { ...expected.metadata, uid: newUid(), creationTimestamp: creationTimestamp.text },
    }) as ApiObject;
  const kv = stored.get(k);
  const existing = kv && state.objects.decode(kv);
  if (!existing) {
    try {
      // The bytes `objects.create(k, fresh())` would store, from the template (nothing reads the result).
      if (encoded) {
        const uid = newUid();
        const bytes = fillDefault(encoded, uid, creationTimestamp.bytes, alloc);
        const build = primeDefault(state, encoded, uid, creationTimestamp.text, bytes);
        const kv = await state.objects.store.create(k, bytes);
        state.objects.primeShared(kv, build);
      } else await state.objects.create(k, fresh());
    } catch (e) {
      if (!isStoreError(e, 'AlreadyExists')) throw e;
    }
    return;
  }
  if (existing.metadata.annotations?.[noUpdate] === 'false') return;
  const next = reconciled(existing, expected, binding);
  if (next === undefined) return;
  if (next === 'recreate') {
    await state.objects.delete(k);
    await state.objects.create(k, fresh());
    return;
  }
  await state.objects.update(k, (current) => {
    const r = reconciled(current, expected, binding);
    return r === undefined || r === 'recreate' ? current : r;
  });
}

/** A default aggregated ClusterRole with the rules aggregation settles on (others unchanged). */
function withSettledRules(
  expected: Obj,
  resource: string,
  settled: ReadonlyMap<string, readonly PolicyRule[]>,
): Obj {
  const rules = resource === 'clusterroles' ? settled.get(expected.metadata.name) : undefined;
  return rules ? { ...expected, rules } : expected;
}
