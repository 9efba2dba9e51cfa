import { kubectl, kubectlAvailable } from '@orchard/testing';
import { describe, expect, it } from 'vitest';
import { kubectlSuite } from './helpers/kubectl-suite.js';

/** `kubectl patch` and client-side `kubectl apply` against the server (the HTTP PATCH types are in patch.test.ts). */

// Needs stock kubectl at /usr/bin/kubectl (.ci/run installs Debian's kubernetes-client); skipped only where it is absent.
describe.skipIf(!kubectlAvailable())('kubectl patch and client-side apply (kubernetes flavor)', () => {
  const suite = kubectlSuite();
  const { k } = suite;
  const deployment = (image: string, replicas: number, extra = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: ${image}
        ports:
        - containerPort: 80
${extra}`;

  it('kubectl apply creates, reconfigures (strategic three-way patch) and reports unchanged', async () => {
    const create = await kubectl(['apply', '-f', '-'], {
      kubeconfig: suite.api.kubeconfigPath,
      input: deployment('nginx:1', 2),
    });
    expect(create).toMatchObject({ code: 0, stdout: 'deployment.apps/web created\n' });
    // A server-side change the manifest does not mention survives the next apply.
    expect((await k('label', 'deploy', 'web', 'owner=ops')).code).toBe(0);
    const update = await kubectl(['apply', '-f', '-'], {
      kubeconfig: suite.api.kubeconfigPath,
      input: deployment('nginx:2', 3),
    });
    expect(update).toMatchObject({ code: 0, stdout: 'deployment.apps/web configured\n' });
    const got = await k(
      'get',
      'deploy',
      'web',
      '-o',
      'jsonpath={.spec.replicas} {.spec.template.spec.containers[0].image} {.metadata.labels.owner}',
    );
    expect(got.stdout).toBe('3 nginx:2 ops');
    const again = await kubectl(['apply', '-f', '-'], {
      kubeconfig: suite.api.kubeconfigPath,
      input: deployment('nginx:2', 3),
    });
    expect(again).toMatchObject({ code: 0, stdout: 'deployment.apps/web unchanged\n' });
  });

  it('kubectl patch --type=strategic|json|merge', async () => {
    expect(
      await k(
        'patch',
        'deploy',
        'web',
        '--type=strategic',
        '-p',
        '{"spec":{"template":{"spec":{"containers":[{"name":"side","image":"busybox"}]}}}}',
      ),
    ).toMatchObject({ code: 0, stdout: 'deployment.apps/web patched\n' });
    expect(
      await k(
        'patch',
        'deploy',
        'web',
        '--type=json',
        '-p',
        '[{"op":"replace","path":"/spec/replicas","value":5}]',
      ),
    ).toMatchObject({ code: 0 });
    expect(
      await k('patch', 'deploy', 'web', '--type=merge', '-p', '{"metadata":{"labels":{"tier":"fe"}}}'),
    ).toMatchObject({ code: 0 });
    const got = await k(
      'get',
      'deploy',
      'web',
      '-o',
      'jsonpath={.spec.replicas} {.spec.template.spec.containers[*].name} {.metadata.labels.tier}',
    );
    // A new element of a merged list goes first (upstream's order).
    expect(got.stdout).toBe('5 side app fe');
    const failing = await k(
      'patch',
      'deploy',
      'web',
      '--type=json',
      '-p',
      '[{"op":"test","path":"/spec/replicas","value":9}]',
    );
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain('testing value /spec/replicas failed');
  });

  it('kubectl diff (a dry-run strategic PATCH) shows the change and stores nothing', async () => {
    const before = await k('get', 'deploy', 'web', '-o', 'json');
    const r = await kubectl(['diff', '-f', '-'], {
      kubeconfig: suite.api.kubeconfigPath,
      input: deployment('nginx:9', 3),
    });
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/^-\s+(- )?image: nginx:2$/m);
    expect(r.stdout).toMatch(/^\+\s+(- )?image: nginx:9$/m);
    expect((await k('get', 'deploy', 'web', '-o', 'json')).stdout).toBe(before.stdout);
  });

  it('kubectl apply --validate=strict rejects an unknown field, naming it', async () => {
    const r = await kubectl(['apply', '--validate=strict', '-f', '-'], {
      kubeconfig: suite.api.kubeconfigPath,
      input: deployment('nginx:3', 3).replace('  replicas: 3\n', '  replicas: 3\n  bogus: 1\n'),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('strict decoding error: unknown field "spec.bogus"');
    expect(
      (
        await k(
          'get',
          'deploy',
          'web',
          '-o',
          'jsonpath={.spec.template.spec.containers[?(@.name=="app")].image}',
        )
      ).stdout,
    ).toBe('nginx:2');
  });
});
