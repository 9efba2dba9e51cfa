import { kubectl, kubectlAvailable } from '@orchard/testing';
import { describe, expect, it } from 'vitest';
import { kubectlSuite } from './helpers/kubectl-suite.js';

/**
 * Deletion with stock kubectl 1.32 under the `kubernetes` flavor: `delete ns` (with its
 * informer-style wait), `get ns` showing Terminating while a finalizer holds content,
 * `delete --cascade=foreground|orphan`, and `delete cm -l app=x`.
 */
// Needs stock kubectl at /usr/bin/kubectl (.ci/run installs Debian's kubernetes-client); skipped only where it is absent.
describe.skipIf(!kubectlAvailable())('kubectl delete (kubernetes flavor)', () => {
  const suite = kubectlSuite();
  const { k } = suite;
  const apply = (yaml: string) =>
    kubectl(['create', '-f', '-'], { kubeconfig: suite.api.kubeconfigPath, input: yaml });

  it('kubectl delete ns waits until the namespace and its content are gone', async () => {
    expect(await k('create', 'ns', 'quick')).toMatchObject({ code: 0 });
    expect(await k('-n', 'quick', 'create', 'cm', 'a', '--from-literal=k=v')).toMatchObject({ code: 0 });
    const r = await k('delete', 'ns', 'quick');
    expect(r).toMatchObject({ code: 0, stdout: 'namespace "quick" deleted\n' });
    const get = await k('get', 'ns', 'quick');
    expect(get.code).toBe(1);
    expect(get.stderr).toContain('Error from server (NotFound): namespaces "quick" not found');
  });

  it('kubectl get ns shows Terminating while a finalizer holds content; the namespace goes once it is removed', async () => {
    expect(await k('create', 'ns', 'slow')).toMatchObject({ code: 0 });
    const held = await apply(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: held\n  namespace: slow\n  finalizers: ["example.com/hold"]\ndata:\n  k: v\n',
    );
    expect(held).toMatchObject({ code: 0, stdout: 'configmap/held created\n' });
    expect(await k('delete', 'ns', 'slow', '--wait=false')).toMatchObject({
      code: 0,
      stdout: 'namespace "slow" deleted\n',
    });
    const ns = await k('get', 'ns', 'slow');
    expect(ns.code).toBe(0);
    // The STATUS column comes from the server-side Table (status.phase).
    expect(ns.stdout).toMatch(/^NAME\s+STATUS\s+AGE\nslow\s+Terminating\s+\d+s\n$/);
    const cols = await k(
      'get',
      'ns',
      'slow',
      '-o',
      'custom-columns=NAME:.metadata.name,STATUS:.status.phase',
    );
    expect(cols.stdout).toMatch(/slow\s+Terminating\n/);
    const phase = await k('get', 'ns', 'slow', '-o', 'jsonpath={.status.phase}');
    expect(phase.stdout).toBe('Terminating');
    const refused = await k('-n', 'slow', 'create', 'cm', 'late', '--from-literal=a=b');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'unable to create new content in namespace slow because it is being terminated',
    );
    const cm = await k('-n', 'slow', 'get', 'cm', 'held', '-o', 'jsonpath={.metadata.deletionTimestamp}');
    expect(cm.stdout).toMatch(/^\d{4}-/);
    expect(
      await k('-n', 'slow', 'patch', 'cm', 'held', '--type=merge', '-p', '{"metadata":{"finalizers":null}}'),
    ).toMatchObject({ code: 0 });
    const wait = await k('wait', '--for=delete', 'ns/slow', '--timeout=10s');
    expect(wait.code).toBe(0);
    expect((await k('get', 'ns', 'slow')).code).toBe(1);
  });

  it('kubectl delete ns default is refused', async () => {
    const r = await k('delete', 'ns', 'default');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'Error from server (Forbidden): namespaces "default" is forbidden: this namespace may not be deleted',
    );
  });

  async function ownerAndDependent(prefix: string): Promise<void> {
    expect(await k('create', 'cm', `${prefix}-owner`, '--from-literal=k=v')).toMatchObject({ code: 0 });
    const uid = (await k('get', 'cm', `${prefix}-owner`, '-o', 'jsonpath={.metadata.uid}')).stdout;
    const dep = await apply(
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${prefix}-dep\n  ownerReferences:\n  - apiVersion: v1\n    kind: ConfigMap\n    name: ${prefix}-owner\n    uid: ${uid}\n    controller: true\n    blockOwnerDeletion: true\ndata:\n  k: v\n`,
    );
    expect(dep.code).toBe(0);
  }

  it('kubectl delete --cascade=foreground returns once the owner and its dependents are gone', async () => {
    await ownerAndDependent('fg');
    const r = await k('delete', 'cm', 'fg-owner', '--cascade=foreground');
    expect(r).toMatchObject({ code: 0, stdout: 'configmap "fg-owner" deleted\n' });
    expect((await k('get', 'cm', 'fg-owner')).code).toBe(1);
    expect((await k('get', 'cm', 'fg-dep')).code).toBe(1);
  });

  it('kubectl delete --cascade=orphan keeps the dependent without its owner reference', async () => {
    await ownerAndDependent('or');
    const r = await k('delete', 'cm', 'or-owner', '--cascade=orphan');
    expect(r).toMatchObject({ code: 0, stdout: 'configmap "or-owner" deleted\n' });
    expect((await k('get', 'cm', 'or-owner')).code).toBe(1);
    const dep = await k('get', 'cm', 'or-dep', '-o', 'jsonpath={.metadata.ownerReferences}');
    expect(dep).toMatchObject({ code: 0, stdout: '' });
  });

  it('kubectl delete --cascade=background (default) collects the dependent', async () => {
    await ownerAndDependent('bg');
    expect(await k('delete', 'cm', 'bg-owner')).toMatchObject({ code: 0 });
    for (let i = 0; i < 100 && (await k('get', 'cm', 'bg-dep')).code === 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect((await k('get', 'cm', 'bg-dep')).code).toBe(1);
  });

  it('kubectl delete cm -l app=x deletes only the matching objects', async () => {
    for (const [n, app] of [
      ['lx1', 'x'],
      ['lx2', 'x'],
      ['ly1', 'y'],
    ] as const) {
      expect(await k('create', 'cm', n, '--from-literal=k=v')).toMatchObject({ code: 0 });
      expect(await k('label', 'cm', n, `app=${app}`)).toMatchObject({ code: 0 });
    }
    const r = await k('delete', 'cm', '-l', 'app=x');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('configmap "lx1" deleted\nconfigmap "lx2" deleted\n');
    const left = await k('get', 'cm', '-l', 'app', '-o', 'name');
    expect(left.stdout).toBe('configmap/ly1\n');
    expect((await k('delete', 'cm', '-l', 'app=none')).stdout).toBe('No resources found\n');
  });

  it('kubectl delete --dry-run=server changes nothing', async () => {
    expect(await k('create', 'cm', 'dry', '--from-literal=k=v')).toMatchObject({ code: 0 });
    expect(await k('delete', 'cm', 'dry', '--dry-run=server')).toMatchObject({
      code: 0,
      stdout: 'configmap "dry" deleted (server dry run)\n',
    });
    expect((await k('get', 'cm', 'dry')).code).toBe(0);
  });
});
