import { type ApiObject, kubernetesFlavor, orchFlavor, type StoredObject } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import type { WriteOperation, WriteRequest } from '../handlers/write-pipeline.js';
import { modifiedLabels, nodeLabelPolicy } from './node-labels.js';
import { nodeRestrictionStep } from './node-restriction.js';

const n1 = { username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
const step = nodeRestrictionStep(kubernetesFlavor);

/** A write of a Node object as the pipeline hands it over (this server serves no nodes yet). */
function nodeWrite(
  operation: WriteOperation,
  name: string,
  obj: ApiObject,
  old?: ApiObject,
  user = n1,
): WriteRequest {
  return {
    ctx: {
      user,
      info: { subresource: '' },
      server: { flavor: kubernetesFlavor, registry: { get: () => undefined } },
    },
    def: { group: '', resource: 'nodes' },
    operation,
    body: obj,
    patchType: undefined,
    obj,
    old: old as StoredObject | undefined,
    dryRun: false,
    fieldManager: 'test',
    namespace: '',
    name: operation === 'create' ? '' : name,
  } as unknown as WriteRequest;
}

async function message(w: WriteRequest): Promise<string | undefined> {
  try {
    await step.run(w);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

const node = (name: string, labels: Record<string, string> = {}, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels },
  spec,
});

describe('NodeRestriction on Node objects', () => {
  it('a node registers itself with the labels it reports, not with restricted ones', async () => {
    const ok = node('n1', {
      'kubernetes.io/hostname': 'n1',
      'kubernetes.io/os': 'linux',
      'topology.kubernetes.io/zone': 'z',
      'node.kubernetes.io/instance-type': 'big',
      'kubelet.kubernetes.io/anything': 'x',
      'example.com/team': 'a',
    });
    expect(await message(nodeWrite('create', 'n1', ok))).toBeUndefined();
    expect(await message(nodeWrite('create', 'n2', node('n2')))).toBe(
      'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
    );
    expect(
      await message(
        nodeWrite(
          'create',
          'n1',
          node('n1', {
            'node-role.kubernetes.io/control-plane': '',
            'node-restriction.kubernetes.io/x': 'y',
          }),
        ),
      ),
    ).toBe(
      'nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: node-restriction.kubernetes.io/x, node-role.kubernetes.io/control-plane',
    );
    expect(
      await message(nodeWrite('create', 'n1', node('n1', {}, { configSource: { configMap: {} } }))),
    ).toBe('nodes "n1" is forbidden: node "n1" is not allowed to create pods with a non-nil configSource');
  });

  it('a node updates its own Node but not its taints nor restricted labels', async () => {
    const old = node(
      'n1',
      { 'kubernetes.io/hostname': 'n1' },
      { taints: [{ key: 'k', effect: 'NoSchedule' }] },
    );
    const same = node(
      'n1',
      { 'kubernetes.io/hostname': 'n1', extra: 'ok' },
      { taints: [{ key: 'k', effect: 'NoSchedule' }] },
    );
    expect(await message(nodeWrite('update', 'n1', same, old))).toBeUndefined();
    expect(await message(nodeWrite('patch', 'n1', node('n1', { 'kubernetes.io/hostname': 'n1' }), old))).toBe(
      'nodes "n1" is forbidden: node "n1" is not allowed to modify taints',
    );
    const relabel = node('n1', { 'kubernetes.io/hostname': 'n1', 'k8s.io/role': 'x' }, old.spec);
    expect(await message(nodeWrite('update', 'n1', relabel, old))).toBe(
      'nodes "n1" is forbidden: is not allowed to modify labels: k8s.io/role',
    );
    expect(await message(nodeWrite('update', 'n2', node('n2'), node('n2')))).toBe(
      'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
    );
    // Empty and absent taint lists are the same.
    expect(
      await message(nodeWrite('update', 'n1', node('n1', {}, { taints: [] }), node('n1'))),
    ).toBeUndefined();
  });

  it('leaves other users alone and refuses a node user without a name', async () => {
    expect(
      await message(nodeWrite('create', 'x', node('x'), undefined, { username: 'alice', groups: [] })),
    ).toBeUndefined();
    expect(
      await message(
        nodeWrite('create', 'x', node('x'), undefined, {
          username: 'system:node:',
          groups: ['system:nodes'],
        }),
      ),
    ).toBe('nodes "x" is forbidden: could not determine node from user "system:node:"');
  });
});

describe('nodeLabelPolicy', () => {
  it('follows the flavor domain', () => {
    const orch = nodeLabelPolicy(orchFlavor);
    expect(
      orch.forbidden(['orch.io/hostname', 'node-role.orch.io/x', 'kubernetes.io/whatever', 'node.orch.io/a']),
    ).toEqual(['node-role.orch.io/x']);
    expect(nodeLabelPolicy(kubernetesFlavor).forbidden(['beta.kubernetes.io/arch', 'x.k8s.io/y'])).toEqual([
      'x.k8s.io/y',
    ]);
  });

  it('modifiedLabels finds added, removed and changed keys', () => {
    expect([...modifiedLabels({ a: '1', b: '2' }, { b: '3', c: '4' })].sort()).toEqual(['a', 'b', 'c']);
    expect(modifiedLabels(undefined, {}).size).toBe(0);
  });
});
