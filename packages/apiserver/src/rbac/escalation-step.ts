import { type AuthorizationAttributes, type Authorizer, mastersGroup } from '@orchard/authz';
import { errors, type UserInfo } from '@orchard/meta';
import { formatRule, type PolicyRule, type RbacEvaluator, type RoleRef, uncoveredRules } from '@orchard/rbac';
import type { WriteRequest, WriteStep } from '../handlers/write-pipeline.js';

/** Everything, at cluster scope: what an `aggregationRule` may end up granting. */
const fullAuthority: readonly PolicyRule[] = Object.freeze([
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
]);

/** Go's `%q` of a string slice: `["a" "b"]`. */
const quoteList = (xs: readonly string[]) => `[${xs.map((x) => JSON.stringify(x)).join(' ')}]`;

/**
 * Upstream's presentation of missing permissions: single-resource atoms without names merged per
 * (group, resource) into one rule with all their verbs, then sorted by the rule's Go string form
 * (`Verbs:[…]` first).
 */
function compactMissing(missing: readonly PolicyRule[]): PolicyRule[] {
  const merged = new Map<
    string,
    { verbs: string[]; apiGroups: readonly string[]; resources: readonly string[] }
  >();
  const out: PolicyRule[] = [];
  for (const r of missing) {
    const simple = !r.nonResourceURLs?.length && !r.resourceNames?.length;
    if (!simple) {
      out.push(r);
      continue;
    }
    const k = JSON.stringify([r.apiGroups, r.resources]);
    const m = merged.get(k);
    if (m) for (const v of r.verbs) m.verbs.includes(v) || m.verbs.push(v);
    else merged.set(k, { verbs: [...r.verbs], apiGroups: r.apiGroups ?? [], resources: r.resources ?? [] });
  }
  out.push(...merged.values());
  const goString = (r: PolicyRule) =>
    [r.verbs, r.apiGroups, r.resources, r.resourceNames, r.nonResourceURLs]
      .map((x) => `[${(x ?? []).join(' ')}]`)
      .join(',');
  return out.sort((a, b) => (goString(a) < goString(b) ? -1 : goString(a) > goString(b) ? 1 : 0));
}

function notHeldMessage(user: UserInfo, missing: readonly PolicyRule[]): string {
  return `user ${JSON.stringify(user.username)} (groups=${quoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${compactMissing(missing).map(formatRule).join('\n')}`;
}

async function allowed(authorizer: Authorizer, a: AuthorizationAttributes): Promise<boolean> {
  return (await authorizer.authorize(a)).decision === 'allow';
}

/**
 * The privilege-escalation guard (spec doc 2 §5.3) as a write step for the four RBAC kinds: a role
 * is written only by a caller holding every permission in it at that scope, or `escalate` on
 * roles/clusterroles (an `aggregationRule` needs every permission); a binding only by a caller
 * holding every permission of the referenced role, or `bind` on it. `system:masters` skips both.
 * The caller's permissions are its RBAC rules (`evaluator`); `escalate`/`bind` are asked of the
 * whole chain. Runs after validation, so the rules it reads are well-formed.
 */
export function rbacEscalationStep(
  group: string,
  authorizer: () => Authorizer,
  evaluator: RbacEvaluator,
): WriteStep {
  const check = async (w: WriteRequest): Promise<void> => {
    const user = w.ctx.user;
    if (user.groups.includes(mastersGroup)) return;
    const resource = w.def.resource;
    const obj = w.obj as Record<string, any>;
    const name: string = obj.metadata?.name ?? w.name;
    const namespace = w.def.namespaced ? w.namespace || (obj.metadata?.namespace ?? '') : '';
    const target = { group, resource };
    const ask = (verb: string, res: string, objName: string) =>
      allowed(authorizer(), {
        user,
        verb,
        isResourceRequest: true,
        path: '',
        apiGroup: group,
        apiVersion: 'v1',
        namespace,
        resource: res,
        subresource: '',
        name: objName,
      });
    if (resource === 'roles' || resource === 'clusterroles') {
      if (await ask('escalate', resource, name)) return;
      const held = evaluator.rulesFor(user, namespace);
      if (resource === 'clusterroles' && obj.aggregationRule) {
        if (uncoveredRules(held, fullAuthority).length > 0)
          throw errors.forbidden(
            target,
            name,
            'must have cluster-admin privileges to use the aggregationRule',
          );
        return;
      }
      const missing = uncoveredRules(held, (obj.rules ?? []) as PolicyRule[]);
      if (missing.length > 0) throw errors.forbidden(target, name, notHeldMessage(user, missing));
      return;
    }
    if (resource !== 'rolebindings' && resource !== 'clusterrolebindings') return;
    const ref = obj.roleRef as RoleRef;
    const refResource = ref.kind === 'Role' ? 'roles' : 'clusterroles';
    if (await ask('bind', refResource, ref.name)) return;
    const rules = evaluator.roleRefRules(ref, namespace);
    if (rules === undefined) throw errors.notFound({ group, resource: refResource }, ref.name);
    const missing = uncoveredRules(evaluator.rulesFor(user, namespace), rules);
    if (missing.length > 0) throw errors.forbidden(target, name, notHeldMessage(user, missing));
  };
  return {
    name: 'rbac-escalation',
    operations: ['create', 'update', 'patch'],
    // Synchronous for every other group: no promise on the write path of a type it does not guard.
    run: (w: WriteRequest) => (w.def.group === group ? check(w) : undefined),
  };
}
