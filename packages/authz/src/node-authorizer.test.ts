import { kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import {
  type AuthorizationAttributes,
  type AuthorizationResult,
  createModeAuthorizer,
  createNodeAuthorizer,
  createNodeGraph,
  nodeIdentity,
} from './index.js';

const graph = createNodeGraph();
graph.setPod({
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    nodeName: 'n1',
    serviceAccountName: 'runner',
    containers: [{ name: 'c', envFrom: [{ configMapRef: { name: 'settings' } }] }],
    volumes: [
      { name: 's', secret: { secretName: 'web-tls' } },
      { name: 'd', persistentVolumeClaim: { claimName: 'data' } },
    ],
  },
});
graph.setPod({
  metadata: { name: 'other', namespace: 'default' },
  spec: { nodeName: 'n2', volumes: [{ name: 's', secret: { secretName: 'other-secret' } }] },
});
graph.setPersistentVolume({
  metadata: { name: 'pv1' },
  spec: { claimRef: { namespace: 'default', name: 'data' } },
});

const node = (name: string) => ({
  username: `system:node:${name}`,
  groups: ['system:nodes', 'system:authenticated'],
});

function ask(
  z: ReturnType<typeof createNodeAuthorizer>,
  verb: string,
  resource: string,
  extra: Partial<AuthorizationAttributes> = {},
): AuthorizationResult {
  const r = z.authorize({
    user: node('n1'),
    verb,
    isResourceRequest: true,
    path: '',
    apiGroup: '',
    apiVersion: 'v1',
    namespace: 'default',
    resource,
    subresource: '',
    name: '',
    ...extra,
  });
  if (r instanceof Promise) throw new Error('the Node authorizer must decide synchronously');
  return r;
}

const z = createNodeAuthorizer({ graph, flavor: kubernetesFlavor });
const no = (reason: string): AuthorizationResult => ({ decision: 'no-opinion', reason });
const allow: AuthorizationResult = { decision: 'allow', reason: '' };
const noRelation: AuthorizationResult = {
  decision: 'no-opinion',
  reason: "no relationship found between node 'n1' and this object",
};

describe('nodeIdentity', () => {
  it('needs both the user prefix and the system:nodes group', () => {
    expect(nodeIdentity(node('n1'))).toEqual({ isNode: true, nodeName: 'n1' });
    expect(nodeIdentity({ username: 'system:node:n1', groups: [] })).toEqual({ isNode: false, nodeName: '' });
    expect(nodeIdentity({ username: 'alice', groups: ['system:nodes'] })).toEqual({
      isNode: false,
      nodeName: '',
    });
    expect(nodeIdentity({ username: 'system:node:', groups: ['system:nodes'] })).toEqual({
      isNode: true,
      nodeName: '',
    });
  });
});

describe('createNodeAuthorizer', () => {
  it('has no opinion about users that are not nodes, and names an unidentifiable node', () => {
    expect(ask(z, 'get', 'secrets', { user: { username: 'alice', groups: ['system:nodes'] } })).toEqual(
      no(''),
    );
    const anon = ask(z, 'get', '', {
      user: { username: 'system:node:', groups: ['system:nodes'] },
      isResourceRequest: false,
      path: '/version',
      apiVersion: '',
      namespace: '',
    });
    expect(anon).toEqual(no('unknown node for user "system:node:"'));
  });

  it('reads secrets, configmaps, claims and volumes only through the graph', () => {
    const table: [string, string, Partial<AuthorizationAttributes>, AuthorizationResult][] = [
      ['get', 'secrets', { name: 'web-tls' }, allow],
      ['watch', 'secrets', { name: 'web-tls' }, allow],
      ['get', 'secrets', { name: 'other-secret' }, noRelation],
      ['get', 'secrets', { name: 'web-tls', namespace: 'kube-system' }, noRelation],
      ['list', 'secrets', {}, no('No Object name found')],
      ['list', 'secrets', { namespace: '' }, no('can only read namespaced object of this type')],
      ['update', 'secrets', { name: 'web-tls' }, no('can only read resources of this type')],
      ['get', 'secrets', { name: 'web-tls', subresource: 'x' }, no('cannot read subresource')],
      ['get', 'configmaps', { name: 'settings' }, allow],
      ['get', 'configmaps', { name: 'web-tls' }, noRelation],
      ['get', 'persistentvolumeclaims', { name: 'data' }, allow],
      [
        'list',
        'persistentvolumeclaims',
        { name: 'data' },
        no('can only get individual resources of this type'),
      ],
      ['patch', 'persistentvolumeclaims', { name: 'data', subresource: 'status' }, allow],
      [
        'get',
        'persistentvolumeclaims',
        { name: 'data', subresource: 'status' },
        no('can only get/update/patch this type'),
      ],
      ['get', 'persistentvolumes', { name: 'pv1', namespace: '' }, allow],
      ['get', 'persistentvolumes', { name: 'pv2', namespace: '' }, noRelation],
      ['create', 'serviceaccounts', { name: 'runner', subresource: 'token' }, allow],
      ['create', 'serviceaccounts', { name: 'default', subresource: 'token' }, noRelation],
      [
        'get',
        'serviceaccounts',
        { name: 'runner' },
        no('can only create tokens for individual service accounts'),
      ],
      [
        'create',
        'serviceaccounts',
        { name: 'runner' },
        no('can only create token subresource of serviceaccount'),
      ],
    ];
    for (const [verb, resource, extra, want] of table)
      expect(ask(z, verb, resource, extra), `${verb} ${resource} ${JSON.stringify(extra)}`).toEqual(want);
  });

  it('limits leases to its own in the node-lease namespace of the flavor', () => {
    const lease = { apiGroup: 'coordination.k8s.io', namespace: 'kube-node-lease' };
    expect(ask(z, 'update', 'leases', { ...lease, name: 'n1' })).toEqual(allow);
    expect(ask(z, 'create', 'leases', lease)).toEqual(allow);
    expect(ask(z, 'get', 'leases', { ...lease, name: 'n2' })).toEqual({
      decision: 'no-opinion',
      reason: 'can only access node lease with the same name as the requesting node',
    });
    expect(ask(z, 'get', 'leases', { ...lease, namespace: 'default', name: 'n1' })).toEqual({
      decision: 'no-opinion',
      reason: 'can only access leases in the "kube-node-lease" system namespace',
    });
    expect(ask(z, 'list', 'leases', lease).reason).toBe(
      'can only get, create, update, patch, or delete a node lease',
    );
    const orch = createNodeAuthorizer({ graph, flavor: orchFlavor });
    expect(
      ask(orch, 'update', 'leases', {
        apiGroup: 'coordination.orch.io',
        namespace: 'orch-node-lease',
        name: 'n1',
      }),
    ).toEqual(allow);
  });

  it('with AuthorizeNodeWithSelectors: its own Node, and pods only bound to it', () => {
    const nodes = { namespace: '' };
    expect(ask(z, 'get', 'nodes', { ...nodes, name: 'n1' })).toEqual(allow);
    expect(ask(z, 'get', 'nodes', { ...nodes, name: 'n2' }).reason).toBe(
      "node 'n1' cannot read 'n2', only its own Node object",
    );
    expect(ask(z, 'list', 'nodes', nodes).reason).toBe(
      "node 'n1' cannot read all nodes, only its own Node object",
    );
    expect(ask(z, 'patch', 'nodes', { ...nodes, name: 'n1', subresource: 'status' })).toEqual(allow);
    expect(ask(z, 'delete', 'nodes', { ...nodes, name: 'n1' })).toEqual({
      decision: 'no-opinion',
      reason: '',
    });
    expect(ask(z, 'get', 'pods', { name: 'web' })).toEqual(allow);
    expect(ask(z, 'get', 'pods', { name: 'other' })).toEqual(noRelation);
    expect(ask(z, 'list', 'pods', { namespace: '', fieldSelector: 'spec.nodeName=n1' })).toEqual(allow);
    expect(
      ask(z, 'watch', 'pods', { namespace: '', fieldSelector: 'spec.nodeName==n1,status.phase=Running' }),
    ).toEqual(allow);
    expect(ask(z, 'list', 'pods', { namespace: '', fieldSelector: 'spec.nodeName!=n1' }).reason).toBe(
      'can only list/watch pods with spec.nodeName field selector',
    );
    expect(ask(z, 'list', 'pods', { namespace: '', fieldSelector: 'spec.nodeName=n2' }).reason).toBe(
      'can only list/watch pods with spec.nodeName field selector',
    );
    expect(ask(z, 'list', 'pods', { namespace: '', fieldSelector: 'a=(' }).decision).toBe('no-opinion');
    expect(ask(z, 'create', 'pods', {})).toEqual(allow);
    expect(ask(z, 'update', 'pods', { name: 'web', subresource: 'status' })).toEqual(allow);
    expect(ask(z, 'update', 'pods', { name: 'web' })).toEqual(no(''));
    expect(ask(z, 'create', 'pods', { name: 'web', subresource: 'eviction' })).toEqual(allow);
  });

  it('without AuthorizeNodeWithSelectors: nodes and pods by the static rules', () => {
    const plain = createNodeAuthorizer({ graph, flavor: kubernetesFlavor, withSelectors: false });
    expect(ask(plain, 'list', 'nodes', { namespace: '' })).toEqual(allow);
    expect(ask(plain, 'get', 'pods', { name: 'other' })).toEqual(allow);
    expect(ask(plain, 'delete', 'nodes', { namespace: '', name: 'n1' })).toEqual({
      decision: 'no-opinion',
      reason: '',
    });
  });

  it('uses the static system:node rules for everything else', () => {
    expect(ask(z, 'list', 'services', {})).toEqual(allow);
    expect(ask(z, 'create', 'events', {})).toEqual(allow);
    expect(
      ask(z, 'create', 'certificatesigningrequests', { apiGroup: 'certificates.k8s.io', namespace: '' }),
    ).toEqual(allow);
    expect(ask(z, 'list', 'deployments', { apiGroup: 'apps' })).toEqual({
      decision: 'no-opinion',
      reason: '',
    });
    expect(ask(z, 'delete', 'services', { name: 'x' })).toEqual(no(''));
  });

  it('answers rule reviews of nodes as incomplete', () => {
    expect(z.rulesFor?.(node('n1'), 'default')).toEqual({
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: 'node authorizer does not support user rule resolution',
    });
    expect(z.rulesFor?.({ username: 'alice', groups: [] }, 'default')?.incomplete).toBe(false);
  });

  it('sits in the mode chain: Node,RBAC falls through to RBAC with the reasons joined', () => {
    const chain = createModeAuthorizer({
      modes: ['Node', 'RBAC'],
      node: z,
      rbac: { authorize: () => no('') },
    });
    const r = ask(chain, 'get', 'secrets', {
      name: 'other-secret',
    });
    expect(r).toEqual(noRelation);
  });
});
