/**
 * Mode `Node` (spec doc 2 §5.3, upstream's node authorizer): requests of node agents (user
 * `system:node:<name>` in group `system:nodes`) are limited to what their node needs. Secrets,
 * ConfigMaps, claims, volumes, ResourceClaims, VolumeAttachments and service-account tokens only
 * when the node's graph relates them to the node; its own Lease (and CSINode); with
 * `AuthorizeNodeWithSelectors` its own Node object and the pods bound to it; everything else by the
 * static node rules (the default policy's `system:node` ClusterRole). Anything not allowed is
 * `no-opinion` with upstream's reason, so RBAC behind it may still allow it.
 */
import { type Flavor, parseFieldSelector, type UserInfo } from '@orchard/meta';
import { type PolicyRule, rulesAllow, sharedDefaultPolicy } from '@orchard/rbac';
import { type AuthorizationAttributes, toRbacAttributes } from './attributes.js';
import type { AuthorizationResult, Authorizer } from './authorizer.js';
import { allowResult, noOpinionResult } from './authorizer.js';
import type { NodeGraph } from './node-graph.js';
import type { NodeGraphVertexKind } from './node-references.js';

/** The group every node agent's credential carries. */
export const nodesGroup = 'system:nodes';
/** The prefix of a node agent's user name: `system:node:<nodeName>`. */
export const nodeUserPrefix = 'system:node:';

/**
 * The node a user is (upstream's default node identifier): `isNode` when the name starts with
 * `system:node:` and the groups hold `system:nodes`; `nodeName` is the rest of the name (`""` when
 * nothing follows the prefix: a node that cannot be identified).
 */
export function nodeIdentity(user: UserInfo): { isNode: boolean; nodeName: string } {
  if (!user.username.startsWith(nodeUserPrefix) || !user.groups.includes(nodesGroup))
    return { isNode: false, nodeName: '' };
  return { isNode: true, nodeName: user.username.slice(nodeUserPrefix.length) };
}

/** What the Node authorizer is built from. */
export interface NodeAuthorizerOptions {
  /** The relations between nodes and objects (kept up to date by the caller). */
  readonly graph: NodeGraph;
  /** Names the coordination/storage/resource groups and the node-lease namespace. */
  readonly flavor: Flavor;
  /**
   * The static rules for requests the authorizer does not subdivide (upstream `NodeRules`). Default:
   * the rules of the `system:node` ClusterRole of `defaultPolicy(flavor)`.
   */
  readonly rules?: readonly PolicyRule[];
  /**
   * `AuthorizeNodeWithSelectors` (beta, on by default in 1.32): a node reads only its own Node and
   * lists or watches pods only with a `spec.nodeName=<itself>` field selector. Default true.
   */
  readonly withSelectors?: boolean;
}

const decline = (reason: string): AuthorizationResult => ({ decision: 'no-opinion', reason });

/** The static node rules of the default policy (`system:node`). */
export function defaultNodeRules(flavor: Flavor): PolicyRule[] {
  return [
    ...(sharedDefaultPolicy(flavor).clusterRoles.find((r) => r.metadata.name === 'system:node')?.rules ?? []),
  ];
}

/**
 * Mode `Node` over `options.graph`. Never `deny`s: a request it does not allow is `no-opinion` with
 * upstream's reason (`no relationship found between node 'n1' and this object` …). Synchronous; reads
 * the graph at each call.
 */
export function createNodeAuthorizer(options: NodeAuthorizerOptions): Authorizer {
  const { graph, flavor } = options;
  const rules = [...(options.rules ?? defaultNodeRules(flavor))];
  const withSelectors = options.withSelectors ?? true;
  const coordination = flavor.group('coordination');
  const storage = flavor.group('storage');
  const resourceGroup = flavor.group('resource');
  const leaseNamespace = flavor.nodeLeaseNamespace;

  const related = (node: string, kind: NodeGraphVertexKind, a: AuthorizationAttributes) => {
    if (a.name === '') return decline('No Object name found');
    return graph.hasPath(node, kind, a.namespace, a.name)
      ? allowResult
      : decline(`no relationship found between node '${node}' and this object`);
  };
  const getOnly = (node: string, kind: NodeGraphVertexKind, a: AuthorizationAttributes) => {
    if (a.verb !== 'get') return decline('can only get individual resources of this type');
    if (a.subresource !== '') return decline('cannot get subresource');
    return related(node, kind, a);
  };
  const readNamespaced = (node: string, kind: NodeGraphVertexKind, a: AuthorizationAttributes) => {
    if (a.verb !== 'get' && a.verb !== 'list' && a.verb !== 'watch')
      return decline('can only read resources of this type');
    if (a.subresource !== '') return decline('cannot read subresource');
    if (a.namespace === '') return decline('can only read namespaced object of this type');
    return related(node, kind, a);
  };
  const pvcStatus = (node: string, a: AuthorizationAttributes) => {
    if (a.verb !== 'update' && a.verb !== 'patch') return decline('can only get/update/patch this type');
    return related(node, 'persistentvolumeclaim', a);
  };
  const createToken = (node: string, a: AuthorizationAttributes) => {
    if (a.verb !== 'create' || a.name === '')
      return decline('can only create tokens for individual service accounts');
    if (a.subresource !== 'token') return decline('can only create token subresource of serviceaccount');
    return related(node, 'serviceaccount', a);
  };
  const ownVerbs = new Set(['get', 'create', 'update', 'patch', 'delete']);
  const lease = (node: string, a: AuthorizationAttributes) => {
    if (!ownVerbs.has(a.verb)) return decline('can only get, create, update, patch, or delete a node lease');
    if (a.namespace !== leaseNamespace)
      return decline(`can only access leases in the ${JSON.stringify(leaseNamespace)} system namespace`);
    // A create names no object yet: node-restriction admission checks the name.
    if (a.verb !== 'create' && a.name !== node)
      return decline('can only access node lease with the same name as the requesting node');
    return allowResult;
  };
  const csiNode = (node: string, a: AuthorizationAttributes) => {
    if (!ownVerbs.has(a.verb)) return decline('can only get, create, update, patch, or delete a CSINode');
    if (a.subresource !== '') return decline('cannot authorize CSINode subresources');
    if (a.verb !== 'create' && a.name !== node)
      return decline('can only access CSINode with the same name as the requesting node');
    return allowResult;
  };
  const nodeObject = (node: string, a: AuthorizationAttributes) => {
    if (a.subresource === '') {
      if (a.verb === 'create' || a.verb === 'update' || a.verb === 'patch') return allowResult;
      if (a.verb === 'get' || a.verb === 'list' || a.verb === 'watch') {
        if (a.name === node) return allowResult;
        if (a.name === '') return decline(`node '${node}' cannot read all nodes, only its own Node object`);
        return decline(`node '${node}' cannot read '${a.name}', only its own Node object`);
      }
    } else if (a.subresource === 'status' && (a.verb === 'update' || a.verb === 'patch')) return allowResult;
    return noOpinionResult;
  };
  const pod = (node: string, a: AuthorizationAttributes) => {
    switch (a.subresource) {
      case '':
        if (a.verb === 'get') return getOnly(node, 'pod', a);
        if (a.verb === 'list' || a.verb === 'watch') {
          if (selectsNode(a.fieldSelector, node)) return allowResult;
          if (a.name !== '') return related(node, 'pod', a);
          return decline('can only list/watch pods with spec.nodeName field selector');
        }
        if (a.verb === 'create' || a.verb === 'delete') return allowResult;
        break;
      case 'status':
        if (a.verb === 'update' || a.verb === 'patch') return allowResult;
        break;
      case 'eviction':
        if (a.verb === 'create') return allowResult;
        break;
    }
    return noOpinionResult;
  };

  return {
    authorize(a) {
      const { isNode, nodeName } = nodeIdentity(a.user);
      if (!isNode) return noOpinionResult;
      if (nodeName === '') return decline(`unknown node for user ${JSON.stringify(a.user.username)}`);
      if (a.isResourceRequest) {
        if (a.apiGroup === '')
          switch (a.resource) {
            case 'secrets':
              return readNamespaced(nodeName, 'secret', a);
            case 'configmaps':
              return readNamespaced(nodeName, 'configmap', a);
            case 'persistentvolumeclaims':
              return a.subresource === 'status'
                ? pvcStatus(nodeName, a)
                : getOnly(nodeName, 'persistentvolumeclaim', a);
            case 'persistentvolumes':
              return getOnly(nodeName, 'persistentvolume', a);
            case 'serviceaccounts':
              return createToken(nodeName, a);
            case 'nodes':
              if (withSelectors) return nodeObject(nodeName, a);
              break;
            case 'pods':
              if (withSelectors) return pod(nodeName, a);
              break;
          }
        else if (a.apiGroup === coordination && a.resource === 'leases') return lease(nodeName, a);
        else if (a.apiGroup === storage && a.resource === 'csinodes') return csiNode(nodeName, a);
        else if (a.apiGroup === storage && a.resource === 'volumeattachments')
          return getOnly(nodeName, 'volumeattachment', a);
        else if (a.apiGroup === resourceGroup && a.resource === 'resourceclaims')
          return getOnly(nodeName, 'resourceclaim', a);
      }
      return rulesAllow(rules, toRbacAttributes(a)) ? allowResult : noOpinionResult;
    },
    rulesFor(user) {
      return nodeIdentity(user).isNode
        ? {
            resourceRules: [],
            nonResourceRules: [],
            incomplete: true,
            evaluationError: 'node authorizer does not support user rule resolution',
          }
        : { resourceRules: [], nonResourceRules: [], incomplete: false };
    },
  };
}

/** Whether a field selector holds `spec.nodeName=<node>` (`=` or `==`); a malformed one holds nothing. */
function selectsNode(fieldSelector: string | undefined, node: string): boolean {
  if (fieldSelector === undefined || fieldSelector === '') return false;
  try {
    return parseFieldSelector(fieldSelector)
      .requirements()
      .some((r) => r.field === 'spec.nodeName' && r.operator === '=' && r.value === node);
  } catch {
    return false;
  }
}
