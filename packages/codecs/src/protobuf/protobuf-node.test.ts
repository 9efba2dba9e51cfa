import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type ApiObject, kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { protoFiles } from './proto/index.js';
import { decodeProtobuf, encodeProtobuf } from './protobuf.js';
import { messageType } from './registry.js';

/** A Node as an agent registers it: labels, taints, addresses, capacity, conditions, nodeInfo. */
function sampleNode(): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'n1', labels: { 'kubernetes.io/hostname': 'n1', 'kubernetes.io/os': 'linux' } },
    spec: {
      podCIDR: '10.244.0.0/24',
      podCIDRs: ['10.244.0.0/24'],
      unschedulable: true,
      taints: [
        { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: '2024-01-02T03:04:05Z' },
      ],
    },
    status: {
      capacity: { cpu: '2', memory: '4026532Ki', pods: '110' },
      allocatable: { cpu: '2', memory: '3924132Ki', pods: '110' },
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          lastHeartbeatTime: '2024-01-02T03:04:05Z',
          lastTransitionTime: '2024-01-02T03:00:00Z',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
        },
      ],
      addresses: [
        { type: 'InternalIP', address: '10.0.0.5' },
        { type: 'Hostname', address: 'n1' },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
      nodeInfo: {
        machineID: 'm',
        systemUUID: 's',
        bootID: 'b',
        kernelVersion: '6.1.0',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        containerRuntimeVersion: 'containerd://1.7.0',
        kubeletVersion: 'v1.32.0',
        kubeProxyVersion: '',
        operatingSystem: 'linux',
        architecture: 'amd64',
        swap: { capacity: 0 },
      },
      images: [{ names: ['nginx:1'], sizeBytes: 1000 }],
      runtimeHandlers: [{ name: '', features: { recursiveReadOnlyMounts: false, userNamespaces: true } }],
      features: { supplementalGroupsPolicy: false },
    },
  };
}

describe('Protobuf of Node', () => {
  it('a Node round-trips under either flavor: Go pointer zeros, DaemonEndpoint.Port 0 and empty strings without omitempty kept', () => {
    for (const flavor of [kubernetesFlavor, orchFlavor]) {
      const node = sampleNode();
      const back = decodeProtobuf(encodeProtobuf(node, flavor), flavor) as ApiObject;
      // NodeSystemInfo's strings have no omitempty upstream: the empty kubeProxyVersion comes back.
      expect(back).toEqual(node);
    }
  });

  it('a NodeList round-trips', () => {
    const list: ApiObject = {
      apiVersion: 'v1',
      kind: 'NodeList',
      metadata: { resourceVersion: '7' },
      items: [sampleNode(), { ...sampleNode(), metadata: { name: 'n2' } }],
    };
    const back = decodeProtobuf(encodeProtobuf(list, kubernetesFlavor), kubernetesFlavor) as Record<
      string,
      any
    >;
    expect(back.items.map((n: Record<string, any>) => n.metadata.name)).toEqual(['n1', 'n2']);
  });
});

let protoc = false;
try {
  execFileSync('protoc', ['--version'], { stdio: 'pipe' });
  protoc = true;
} catch {
  protoc = false;
}

// Needs the protoc binary (Debian `protobuf-compiler`, which .ci/run installs).
describe.skipIf(!protoc)('Node against protoc (upstream field numbers)', () => {
  it('our Node bytes decode with protoc as k8s.io.api.core.v1.Node', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orchard-node-proto-'));
    try {
      for (const f of protoFiles) {
        mkdirSync(join(dir, dirname(f.path)), { recursive: true });
        writeFileSync(join(dir, f.path), f.text);
      }
      const body = encodeProtobuf(sampleNode(), kubernetesFlavor);
      const raw = (
        messageType('k8s.io.apimachinery.pkg.runtime.Unknown').decode(body.subarray(4)) as unknown as {
          raw: Uint8Array;
        }
      ).raw;
      const text = execFileSync(
        'protoc',
        ['--decode=k8s.io.api.core.v1.Node', `-I${dir}`, 'k8s.io/api/core/v1/generated.proto'],
        { input: raw, cwd: dir },
      ).toString();
      expect(text).toContain('unschedulable: true');
      expect(text).toContain('capacity {\n    key: "cpu"\n    value {\n      string: "2"');
      expect(text).toContain('kubeletEndpoint {\n      Port: 0\n    }');
      expect(text).toContain('architecture: "amd64"');
      expect(text).toMatch(/conditions \{\n {4}type: "Ready"\n {4}status: "True"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
