import { crdFixture, installCrd, kubectlAvailable } from '@orchard/testing';
import { describe, expect, it } from 'vitest';
import { useWireServer } from './helpers/kubectl-wire.js';

/**
 * The commands of ../shared/clients/kubectl-wire.md §4–§5 (create generators with Protobuf bodies,
 * delete, label, annotate, patch, apply client- and server-side, diff, replace), run with stock
 * kubectl 1.32 against the reference server under `--flavor kubernetes`, asserting the output the
 * document records; docs/clients.md maps every command to its test.
 */
describe.skipIf(!kubectlAvailable())('kubectl-wire.md §4–§5 (kubernetes flavor)', () => {
  const { api, k, kn, file, cm } = useWireServer();
  describe('§4 create / delete / label / annotate / patch', () => {
    it('create <generator> for configmap, namespace, serviceaccount, secret, deployment, job, role, quota, service, ingress (Protobuf bodies)', async () => {
      const runs: [string[], string][] = [
        [['create', 'configmap', 'g1', '--from-literal=k=v'], 'configmap/g1 created'],
        [['create', 'namespace', 'gen-ns'], 'namespace/gen-ns created'],
        [['create', 'serviceaccount', 'robot'], 'serviceaccount/robot created'],
        [['create', 'secret', 'generic', 's1', '--from-literal=p=q'], 'secret/s1 created'],
        [['create', 'deployment', 'd1', '--image=nginx', '--replicas=2'], 'deployment.apps/d1 created'],
        [['create', 'job', 'j1', '--image=busybox', '--', 'true'], 'job.batch/j1 created'],
        [
          ['create', 'role', 'r1', '--verb=get', '--resource=configmaps'],
          'role.rbac.authorization.k8s.io/r1 created',
        ],
        [['create', 'quota', 'q1', '--hard=pods=10,requests.cpu=500m'], 'resourcequota/q1 created'],
        [['create', 'service', 'nodeport', 'svc1', '--tcp=80:8080'], 'service/svc1 created'],
        [
          ['create', 'ingress', 'ing1', '--rule=example.com/=svc1:80'],
          'ingress.networking.k8s.io/ing1 created',
        ],
      ];
      for (const [args, want] of runs) {
        const r = await kn(...args);
        expect({ args, code: r.code, out: r.stdout.trim(), err: r.stderr }).toEqual({
          args,
          code: 0,
          out: want,
          err: '',
        });
      }
      expect((await kn('get', 'deploy', 'd1', '-o', 'jsonpath={.spec.replicas}')).stdout).toBe('2');
      expect((await kn('get', 'secret', 's1', '-o', 'jsonpath={.data.p}')).stdout).toBe('cQ==');
      expect(
        (await kn('get', 'svc', 'svc1', '-o', 'jsonpath={.spec.type} {.spec.ports[0].targetPort}')).stdout,
      ).toBe('NodePort 8080');
      expect((await kn('get', 'quota', 'q1', '-o', 'jsonpath={.spec.hard}')).stdout).toBe(
        '{"pods":"10","requests.cpu":"500m"}',
      );
      expect(
        (await kn('get', 'job', 'j1', '-o', 'jsonpath={.spec.template.spec.restartPolicy}')).stdout,
      ).toBe('Never');
    });
    it('create --dry-run=server / client, 409 and 422 messages, create -f and its 409', async () => {
      expect((await kn('create', 'cm', 'dry', '--dry-run=server')).stdout).toBe(
        'configmap/dry created (server dry run)\n',
      );
      expect((await kn('create', 'cm', 'dry', '--dry-run=client')).stdout).toBe(
        'configmap/dry created (dry run)\n',
      );
      expect((await kn('get', 'cm', 'dry')).code).toBe(1);
      const dup = await kn('create', 'cm', 'a');
      expect(dup).toMatchObject({
        code: 1,
        stderr: 'error: failed to create configmap: configmaps "a" already exists\n',
      });
      const bad = await kn('create', 'cm', 'Bad_Name');
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(
        /^error: failed to create configmap: ConfigMap "Bad_Name" is invalid: metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/,
      );
      const f = file(cm('fromfile', '  x: "1"\n'));
      expect((await k('create', '-f', f)).stdout).toBe('configmap/fromfile created\n');
      const again = await k('create', '-f', f);
      expect(again).toMatchObject({
        code: 1,
        stderr: `Error from server (AlreadyExists): error when creating "${f}": configmaps "fromfile" already exists\n`,
      });
    });
    it('delete (waits), --grace-period=0 --force, --wait=false, NotFound, --ignore-not-found', async () => {
      for (const n of ['d1', 'd2', 'd3']) await kn('create', 'cm', n);
      expect(await kn('delete', 'cm', 'd1')).toMatchObject({ code: 0, stdout: 'configmap "d1" deleted\n' });
      const forced = await kn('delete', 'cm', 'd2', '--grace-period=0', '--force');
      expect(forced).toMatchObject({ code: 0, stdout: 'configmap "d2" force deleted\n' });
      expect(forced.stderr).toContain('Immediate deletion does not wait for confirmation');
      expect(await kn('delete', 'cm', 'd3', '--wait=false')).toMatchObject({
        code: 0,
        stdout: 'configmap "d3" deleted\n',
      });
      expect(await kn('delete', 'cm', 'd1')).toMatchObject({
        code: 1,
        stderr: 'Error from server (NotFound): configmaps "d1" not found\n',
      });
      expect(await kn('delete', 'cm', 'd1', '--ignore-not-found')).toMatchObject({
        code: 0,
        stdout: '',
        stderr: '',
      });
      // delete ns waits (informer-style list + watch) until the namespace is gone.
      await k('create', 'ns', 'gone-soon');
      await k('-n', 'gone-soon', 'create', 'cm', 'x');
      expect(await k('delete', 'ns', 'gone-soon')).toMatchObject({
        code: 0,
        stdout: 'namespace "gone-soon" deleted\n',
      });
      expect((await k('get', 'ns', 'gone-soon')).code).toBe(1);
    });
    it('label add / remove / without --overwrite / --overwrite / --resource-version / --all; annotate', async () => {
      await kn('create', 'cm', 'lb');
      expect((await kn('label', 'cm', 'lb', 'env=dev')).stdout).toBe('configmap/lb labeled\n');
      expect(await kn('label', 'cm', 'lb', 'env=prod')).toMatchObject({
        code: 1,
        stderr: "error: 'env' already has a value (dev), and --overwrite is false\n",
      });
      expect((await kn('label', 'cm', 'lb', 'env=prod', '--overwrite')).stdout).toBe(
        'configmap/lb labeled\n',
      );
      const stale = await kn('label', 'cm', 'lb', 'x=1', '--resource-version=1');
      expect(stale.code).toBe(1);
      expect(stale.stderr).toMatch(
        /^Error from server \(Conflict\): Operation cannot be fulfilled on configmaps "lb": the object has been modified; please apply your changes to the latest version and try again/,
      );
      expect((await kn('label', 'cm', 'lb', 'env-')).stdout).toBe('configmap/lb unlabeled\n');
      expect((await kn('get', 'cm', 'lb', '-o', 'jsonpath={.metadata.labels}')).stdout).toBe('');
      const all = await kn('label', 'cm', '--all', 'swept=yes');
      expect(all.code, all.stderr).toBe(0);
      expect((await kn('get', 'cm', '-l', 'swept=yes', '-o', 'name')).stdout.trim().split('\n').length).toBe(
        (await kn('get', 'cm', '-o', 'name')).stdout.trim().split('\n').length,
      );
      expect((await kn('annotate', 'cm', 'lb', 'note=hi')).stdout).toBe('configmap/lb annotated\n');
      expect((await kn('get', 'cm', 'lb', '-o', 'jsonpath={.metadata.annotations.note}')).stdout).toBe('hi');
      expect((await kn('annotate', 'cm', 'lb', 'note-')).stdout).toBe('configmap/lb annotated\n');
    });
    it('patch --type strategic / merge / json, "patched (no change)", and the 415 for a custom resource', async () => {
      await kn('create', 'cm', 'pt', '--from-literal=a=1');
      expect((await kn('patch', 'cm', 'pt', '-p', '{"data":{"b":"2"}}')).stdout).toBe(
        'configmap/pt patched\n',
      );
      expect((await kn('patch', 'cm', 'pt', '--type=merge', '-p', '{"data":{"a":null}}')).stdout).toBe(
        'configmap/pt patched\n',
      );
      expect(
        (await kn('patch', 'cm', 'pt', '--type=json', '-p', '[{"op":"add","path":"/data/c","value":"3"}]'))
          .stdout,
      ).toBe('configmap/pt patched\n');
      expect((await kn('get', 'cm', 'pt', '-o', 'jsonpath={.data}')).stdout).toBe('{"b":"2","c":"3"}');
      expect((await kn('patch', 'cm', 'pt', '-p', '{"data":{"b":"2"}}')).stdout).toBe(
        'configmap/pt patched (no change)\n',
      );
      const bad = await kn(
        'patch',
        'cm',
        'pt',
        '--type=json',
        '-p',
        '[{"op":"test","path":"/data/b","value":"9"}]',
      );
      expect(bad.code).toBe(1);
      await installCrd(
        api(),
        crdFixture({
          group: 'example.com',
          plural: 'widgets',
          kind: 'Widget',
          spec: { size: { type: 'integer' } },
        }),
      );
      await k(
        'apply',
        '-f',
        file(
          'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: wire\nspec:\n  size: 1\n',
        ),
      );
      const cr = await kn('patch', 'widget', 'w', '-p', '{"spec":{"size":2}}');
      expect(cr.code).toBe(1);
      expect(cr.stderr).toMatch(
        /^error: application\/strategic-merge-patch\+json is not supported by example\.com\/v1, Kind=Widget: /,
      );
      expect((await kn('patch', 'widget', 'w', '--type=merge', '-p', '{"spec":{"size":2}}')).stdout).toBe(
        'widget.example.com/w patched\n',
      );
    });
  });

  describe('§5 apply / diff / replace', () => {
    it('apply -f: created, unchanged, configured (strategic patch with last-applied), multi-document, dry runs', async () => {
      const v1 = file(cm('app', '  color: red\n  size: L\n'));
      expect((await k('apply', '-f', v1)).stdout).toBe('configmap/app created\n');
      expect((await k('apply', '-f', v1)).stdout).toBe('configmap/app unchanged\n');
      const v2 = file(cm('app', '  color: green\n'));
      expect((await k('apply', '-f', v2, '--dry-run=server')).stdout).toBe(
        'configmap/app configured (server dry run)\n',
      );
      expect((await k('apply', '-f', v2, '--dry-run=client')).stdout).toBe(
        'configmap/app configured (dry run)\n',
      );
      expect((await kn('get', 'cm', 'app', '-o', 'jsonpath={.data}')).stdout).toBe(
        '{"color":"red","size":"L"}',
      );
      expect((await k('apply', '-f', v2)).stdout).toBe('configmap/app configured\n');
      expect((await kn('get', 'cm', 'app', '-o', 'jsonpath={.data}')).stdout).toBe('{"color":"green"}');
      const last = (
        await kn(
          'get',
          'cm',
          'app',
          '-o',
          'jsonpath={.metadata.annotations.kubectl\\.kubernetes\\.io/last-applied-configuration}',
        )
      ).stdout;
      expect(JSON.parse(last)).toMatchObject({ data: { color: 'green' } });
      const multi = file(
        'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: multi\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: m\n  namespace: multi\ndata:\n  a: "1"\n',
      );
      expect((await k('apply', '-f', multi)).stdout).toBe('namespace/multi created\nconfigmap/m created\n');
    });
    it('apply field validation: Strict rejects an unknown field, --validate=warn warns, --validate=false ignores', async () => {
      const bogus = file(`${cm('strict', '  a: "1"\n')}bogus: 1\n`);
      const strict = await k('apply', '-f', bogus);
      expect(strict.code).toBe(1);
      expect(strict.stderr).toBe(
        `Error from server (BadRequest): error when creating "${bogus}": ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus"\n`,
      );
      const warn = await k('apply', '-f', bogus, '--validate=warn');
      expect(warn).toMatchObject({ code: 0, stdout: 'configmap/strict created\n' });
      expect(warn.stderr).toBe('Warning: unknown field "bogus"\n');
      const ignore = await k(
        'apply',
        '-f',
        file(`${cm('ignored', '  a: "1"\n')}bogus: 1\n`),
        '--validate=false',
      );
      expect(ignore).toMatchObject({ code: 0, stdout: 'configmap/ignored created\n', stderr: '' });
    });
    it('apply --server-side: created/updated, conflicts, --force-conflicts, --field-manager, dry run, unknown field', async () => {
      const f = file(cm('ssa', '  color: blue\n'));
      expect((await k('apply', '--server-side', '-f', f)).stdout).toBe('configmap/ssa serverside-applied\n');
      expect((await k('apply', '--server-side', '-f', f)).stdout).toBe('configmap/ssa serverside-applied\n');
      const other = file(cm('ssa', '  color: green\n'));
      const conflict = await k('apply', '--server-side', '--field-manager=mytool', '-f', other);
      expect(conflict.code).toBe(1);
      expect(conflict.stderr).toContain(
        'error: Apply failed with 1 conflict: conflict with "kubectl": .data.color\nPlease review the fields above--they currently have other managers.',
      );
      expect(
        (
          await k(
            'apply',
            '--server-side',
            '--field-manager=mytool',
            '--dry-run=server',
            '--force-conflicts',
            '-f',
            other,
          )
        ).stdout,
      ).toBe('configmap/ssa serverside-applied (server dry run)\n');
      expect((await kn('get', 'cm', 'ssa', '-o', 'jsonpath={.data.color}')).stdout).toBe('blue');
      expect(
        (await k('apply', '--server-side', '--field-manager=mytool', '--force-conflicts', '-f', other)).code,
      ).toBe(0);
      const managers = (
        await kn(
          'get',
          'cm',
          'ssa',
          '--show-managed-fields',
          '-o',
          'jsonpath={.metadata.managedFields[*].manager}',
        )
      ).stdout;
      // kubectl owned only .data.color, so forcing it away leaves kubectl no fields and no entry.
      expect(managers).toBe('mytool');
      const bogus = await k('apply', '--server-side', '-f', file(`${cm('ssa-bad', '  a: "1"\n')}bogus: 1\n`));
      expect(bogus.code).toBe(1);
      expect(bogus.stderr).toBe('Error from server (BadRequest): .bogus: field not declared in schema\n');
      // Client-side applied first, then server-side: kubectl sends a second apply as kubectl-last-applied.
      const csa = file(cm('mixed', '  a: "1"\n'));
      await k('apply', '-f', csa);
      expect((await k('apply', '--server-side', '-f', csa)).code).toBe(0);
      const mixed = (
        await kn(
          'get',
          'cm',
          'mixed',
          '--show-managed-fields',
          '-o',
          'jsonpath={.metadata.managedFields[*].manager}',
        )
      ).stdout;
      expect(mixed.split(' ')).toContain('kubectl-last-applied');
    });
    it('diff -f (exit 1 with differences, 0 without) and replace -f', async () => {
      const same = file(cm('df', '  a: "1"\n'));
      await k('apply', '-f', same);
      expect(await k('diff', '-f', same)).toMatchObject({ code: 0, stdout: '' });
      const changed = file(cm('df', '  a: "2"\n'));
      const d = await k('diff', '-f', changed);
      expect(d.code).toBe(1);
      expect(d.stdout).toMatch(/^-\s+a: "1"$/m);
      expect(d.stdout).toMatch(/^\+\s+a: "2"$/m);
      expect((await kn('get', 'cm', 'df', '-o', 'jsonpath={.data.a}')).stdout).toBe('1');
      expect((await k('replace', '-f', changed)).stdout).toBe('configmap/df replaced\n');
      expect((await kn('get', 'cm', 'df', '-o', 'jsonpath={.data.a}')).stdout).toBe('2');
      const missing = await k('replace', '-f', file(cm('nothere', '  a: "1"\n')));
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('configmaps "nothere" not found');
    });
  });
});
