/**
 * The RBAC evaluator: holds roles, cluster roles and both binding kinds, and decides requests.
 *
 * Bindings are indexed by subject (user name, group name, service-account user) and, for RoleBindings,
 * by namespace, so one decision visits only the bindings that name the caller or one of its groups: its
 * cost does not grow with the total number of bindings (upstream scans every binding per request).
 * Role rules are looked up by name at decision time, so updating a role needs no re-index.
 */
import type { UserInfo } from '@orchard/meta';
import type { RbacAttributes } from './attributes.js';
import { rulesAllow as rulesAllowAttrs } from './rule-matches.js';
import { describeSubject, subjectKey } from './subjects.js';
import type {
  ClusterRole,
  ClusterRoleBinding,
  PolicyRule,
  Role,
  RoleBinding,
  RoleRef,
  Subject,
} from './types.js';

/** RBAC allows or has no opinion (it never denies: permissions are purely additive). */
export interface RbacDecision {
  readonly allowed: boolean;
  /** Upstream's wording: `RBAC: allowed by ClusterRoleBinding "x" of ClusterRole "y" to User "u"`. */
  readonly reason: string;
}

/** A binding that applies to the caller, with the rules of its role (empty when the role is missing). */
export interface AppliedBinding {
  readonly kind: 'RoleBinding' | 'ClusterRoleBinding';
  readonly binding: RoleBinding | ClusterRoleBinding;
  readonly subject: Subject;
  readonly rules: readonly PolicyRule[];
}

/**
 * An in-memory index of roles and bindings that answers authorization decisions; `createRbacEvaluator` makes
 * an empty one. The `set*` methods replace the object with the same namespace/name (so a changed binding
 * drops its old subjects) and the `delete*` methods ignore names they do not hold; both mutate only this
 * evaluator. Roles are looked up at decision time, so a binding may be set before its role.
 */
export interface RbacEvaluator {
  setRole(role: Role): void;
  deleteRole(namespace: string, name: string): void;
  setClusterRole(role: ClusterRole): void;
  deleteClusterRole(name: string): void;
  setRoleBinding(binding: RoleBinding): void;
  deleteRoleBinding(namespace: string, name: string): void;
  setClusterRoleBinding(binding: ClusterRoleBinding): void;
  deleteClusterRoleBinding(name: string): void;
  /** Allowed when any rule of any binding of the caller allows; RoleBindings only in their namespace. */
  authorize(user: UserInfo, attrs: RbacAttributes): RbacDecision;
  /**
   * The rules the caller holds in `namespace` (`""`: cluster-wide only), ClusterRoleBindings first.
   * Stops when `visit` returns false.
   */
  visitRules(user: UserInfo, namespace: string, visit: (b: AppliedBinding) => boolean): void;
  /** All rules of `visitRules`, flattened. */
  rulesFor(user: UserInfo, namespace: string): PolicyRule[];
  /** The rules a roleRef names, or `undefined` when that role does not exist. */
  roleRefRules(ref: RoleRef, namespace: string): readonly PolicyRule[] | undefined;
}

type Index<B> = Map<string, Map<string, B>>; // subject key → binding name → binding

function addToIndex<B>(index: Index<B>, key: string, name: string, b: B): void {
  let m = index.get(key);
  if (!m) {
    m = new Map();
    index.set(key, m);
  }
  m.set(name, b);
}

function removeFromIndex<B>(index: Index<B>, key: string, name: string): void {
  const m = index.get(key);
  if (!m) return;
  m.delete(name);
  if (m.size === 0) index.delete(key);
}

function keysOf(subjects: readonly Subject[] | null | undefined, ns: string): string[] {
  const out = new Set<string>();
  for (const s of subjects ?? []) {
    const k = subjectKey(s, ns);
    if (k !== undefined) out.add(k);
  }
  return [...out];
}

/** Creates an empty evaluator; feed it with the `set*`/`delete*` methods (e.g. from a watch). */
export function createRbacEvaluator(): RbacEvaluator {
  const roles = new Map<string, Role>(); // `${ns}/${name}`
  const clusterRoles = new Map<string, ClusterRole>();
  const roleBindings = new Map<string, RoleBinding>(); // `${ns}/${name}`
  const clusterRoleBindings = new Map<string, ClusterRoleBinding>();
  const crbIndex: Index<ClusterRoleBinding> = new Map();
  const rbIndex = new Map<string, Index<RoleBinding>>(); // namespace → index

  function roleRefRules(ref: RoleRef, namespace: string): readonly PolicyRule[] | undefined {
    if (ref.kind === 'ClusterRole') return clusterRoles.get(ref.name)?.rules ?? undefined;
    if (ref.kind === 'Role' && namespace) return roles.get(`${namespace}/${ref.name}`)?.rules ?? undefined;
    return undefined;
  }

  function unindexRoleBinding(key: string): void {
    const old = roleBindings.get(key);
    if (!old) return;
    const ns = old.metadata.namespace ?? '';
    const idx = rbIndex.get(ns);
    if (idx) {
      for (const k of keysOf(old.subjects, ns)) removeFromIndex(idx, k, old.metadata.name);
      if (idx.size === 0) rbIndex.delete(ns);
    }
    roleBindings.delete(key);
  }

  function unindexClusterRoleBinding(name: string): void {
    const old = clusterRoleBindings.get(name);
    if (!old) return;
    for (const k of keysOf(old.subjects, '')) removeFromIndex(crbIndex, k, name);
    clusterRoleBindings.delete(name);
  }

  function matchingSubject(
    b: RoleBinding | ClusterRoleBinding,
    user: UserInfo,
    ns: string,
  ): Subject | undefined {
    for (const s of b.subjects ?? []) {
      const k = subjectKey(s, ns);
      if (k === undefined) continue;
      if (k.startsWith('u:') ? k.slice(2) === user.username : user.groups.includes(k.slice(2))) return s;
    }
    return undefined;
  }

  // Visits each applicable binding once (a binding naming both the user and one of its groups is seen once).
  function visit(user: UserInfo, namespace: string, fn: (b: AppliedBinding) => boolean): void {
    const seen = new Set<unknown>();
    const keys = [`u:${user.username}`, ...user.groups.map((g) => `g:${g}`)];
    for (const k of keys) {
      const m = crbIndex.get(k);
      if (!m) continue;
      for (const b of m.values()) {
        if (seen.has(b)) continue;
        seen.add(b);
        const subject = matchingSubject(b, user, '');
        if (!subject) continue;
        const rules = roleRefRules(b.roleRef, '') ?? [];
        if (!fn({ kind: 'ClusterRoleBinding', binding: b, subject, rules })) return;
      }
    }
    if (!namespace) return;
    const idx = rbIndex.get(namespace);
    if (!idx) return;
    for (const k of keys) {
      const m = idx.get(k);
      if (!m) continue;
      for (const b of m.values()) {
        if (seen.has(b)) continue;
        seen.add(b);
        const subject = matchingSubject(b, user, namespace);
        if (!subject) continue;
        const rules = roleRefRules(b.roleRef, namespace) ?? [];
        if (!fn({ kind: 'RoleBinding', binding: b, subject, rules })) return;
      }
    }
  }

  function allow(
    kind: 'RoleBinding' | 'ClusterRoleBinding',
    b: RoleBinding | ClusterRoleBinding,
    user: UserInfo,
    ns: string,
  ): RbacDecision {
    const subject = matchingSubject(b, user, ns);
    const bname = kind === 'RoleBinding' ? `${b.metadata.name}/${ns}` : b.metadata.name;
    const who = subject ? describeSubject(subject, ns) : `User "${user.username}"`;
    return {
      allowed: true,
      reason: `RBAC: allowed by ${kind} "${bname}" of ${b.roleRef.kind} "${b.roleRef.name}" to ${who}`,
    };
  }

  return {
    setRole(role) {
      roles.set(`${role.metadata.namespace ?? ''}/${role.metadata.name}`, role);
    },
    deleteRole(namespace, name) {
      roles.delete(`${namespace}/${name}`);
    },
    setClusterRole(role) {
      clusterRoles.set(role.metadata.name, role);
    },
    deleteClusterRole(name) {
      clusterRoles.delete(name);
    },
    setRoleBinding(b) {
      const ns = b.metadata.namespace ?? '';
      const key = `${ns}/${b.metadata.name}`;
      unindexRoleBinding(key);
      roleBindings.set(key, b);
      let idx = rbIndex.get(ns);
      if (!idx) {
        idx = new Map();
        rbIndex.set(ns, idx);
      }
      for (const k of keysOf(b.subjects, ns)) addToIndex(idx, k, b.metadata.name, b);
    },
    deleteRoleBinding(namespace, name) {
      unindexRoleBinding(`${namespace}/${name}`);
    },
    setClusterRoleBinding(b) {
      unindexClusterRoleBinding(b.metadata.name);
      clusterRoleBindings.set(b.metadata.name, b);
      for (const k of keysOf(b.subjects, '')) addToIndex(crbIndex, k, b.metadata.name, b);
    },
    deleteClusterRoleBinding(name) {
      unindexClusterRoleBinding(name);
    },
    authorize(user, attrs) {
      // The hot path: no closures, no dedupe (a binding reached under two keys is only re-checked),
      // the subject looked up only for the reason of an allow.
      const ns = attrs.resourceRequest ? (attrs.namespace ?? '') : '';
      const nsIdx = ns ? rbIndex.get(ns) : undefined;
      const groups = user.groups;
      for (let i = -1; i < groups.length; i++) {
        const key = i < 0 ? `u:${user.username}` : `g:${groups[i]}`;
        const cm = crbIndex.get(key);
        if (cm) {
          for (const b of cm.values()) {
            const rules = roleRefRules(b.roleRef, '');
            if (rules && rulesAllowAttrs(rules, attrs)) return allow('ClusterRoleBinding', b, user, '');
          }
        }
        const m = nsIdx?.get(key);
        if (m) {
          for (const b of m.values()) {
            const rules = roleRefRules(b.roleRef, ns);
            if (rules && rulesAllowAttrs(rules, attrs)) return allow('RoleBinding', b, user, ns);
          }
        }
      }
      return { allowed: false, reason: '' };
    },
    visitRules: visit,
    rulesFor(user, namespace) {
      const out: PolicyRule[] = [];
      visit(user, namespace, (ab) => {
        out.push(...ab.rules);
        return true;
      });
      return out;
    },
    roleRefRules,
  };
}
