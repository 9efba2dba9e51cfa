import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseServiceAccountSigningKey } from '@orchard/apiserver';
import {
  crdFixture,
  installCrd,
  kubectl,
  kubectlAvailable,
  startTestServer,
  type TestServer,
  waitFor,
} from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Every command of ../shared/clients/kubectl-wire.md (sections 1, 2 and 4–8), run with stock
 * kubectl 1.32 against the reference server under `--flavor kubernetes`, asserting the output the
 * document records (the watch commands of section 3 are in kubectl-wire-watch.e2e.test.ts; the
 * checklist mapping every command to a test is in docs/clients.md). kubectl speaks only the
 * kubernetes flavor's names, so there is no orch pass; the same HTTP behaviours are covered under
 * both flavors by the suites named in docs/clients.md.
 */
describe.skipIf(!kubectlAvailable())('kubectl-wire.md commands (kubernetes flavor)', () => {
  let api: TestServer;
  const dir = mkdtempSync(join(tmpdir(), 'orchard-kubectl-wire-'));
  const k = (...args: string[]) => kubectl(args, { kubeconfig: api.kubeconfigPath });
  const kn = (...args: string[]) => kubectl(['-n', 'wire', ...args], { kubeconfig: api.kubeconfigPath });
  let files = 0;
  /** Writes a manifest file and returns its path. */
  const file = (text: string) => {
    const path = join(dir, `m${++files}.yaml`);
    writeFileSync(path, text);
    return path;
  };
  const cm = (name: string, data: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: wire\ndata:\n${data}`;

  beforeAll(async () => {
    // Service-account tokens on (`create token`, and a 401 for a token nobody accepts), as a cluster has.
    const signingKey = parseServiceAccountSigningKey(
      generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({
        type: 'pkcs8',
        format: 'pem',
      }) as string,
      'sa.key',
    );
    api = await startTestServer({
      flavor: 'kubernetes',
      server: {
        authentication: {
          serviceAccounts: {
            keys: [],
            signingKey,
            issuers: ['https://kubernetes.default.svc.cluster.local'],
          },
        },
      },
    });
    for (const ns of ['wire', 'empty'])
      await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
    for (const [name, labels] of [
      ['a', { app: 'x' }],
      ['b', { app: 'y' }],
      ['c', { app: 'x' }],
    ] as const)
      await api.request('POST', '/api/v1/namespaces/wire/configmaps', {
        body: { metadata: { name, labels }, data: { k: name } },
      });
  });
  afterAll(async () => {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('§1 version / api-resources / api-versions', () => {
    it('version', async () => {
      const r = await k('version');
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout).toMatch(/Client Version: v1\.32\.\d+/);
      expect(r.stdout).toMatch(/Server Version: v1\.32\.\d+/);
    });
    it('api-resources (short names, scope, kinds)', async () => {
      const r = await k('api-resources');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^NAME\s+SHORTNAMES\s+APIVERSION\s+NAMESPACED\s+KIND/);
      expect(r.stdout).toMatch(/configmaps\s+cm\s+v1\s+true\s+ConfigMap/);
      expect(r.stdout).toMatch(/deployments\s+deploy\s+apps\/v1\s+true\s+Deployment/);
      expect(r.stdout).toMatch(/namespaces\s+ns\s+v1\s+false\s+Namespace/);
    });
    it('api-versions', async () => {
      const r = await k('api-versions');
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.trim().split('\n');
      expect(lines).toEqual(expect.arrayContaining(['v1', 'apps/v1', 'rbac.authorization.k8s.io/v1']));
    });
  });

  describe('§2 get', () => {
    it('get cm (Table: NAME DATA AGE), get cm x, get cm x y, get ns (cluster-scoped)', async () => {
      const list = await kn('get', 'cm');
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toMatch(/^NAME\s+DATA\s+AGE\n/);
      expect(list.stdout).toMatch(/^a\s+1\s+\d+[smhd]/m);
      const one = await kn('get', 'cm', 'a');
      expect(one.stdout.trim().split('\n')).toHaveLength(2);
      const two = await kn('get', 'cm', 'a', 'b', '-o', 'name');
      expect(two.stdout).toBe('configmap/a\nconfigmap/b\n');
      const ns = await k('get', 'ns');
      expect(ns.stdout).toMatch(/^NAME\s+STATUS\s+AGE\n/);
      expect(ns.stdout).toMatch(/^wire\s+Active\s+/m);
    });
    it('get -A adds the NAMESPACE column; --show-labels the LABELS column; -o wide', async () => {
      const all = await k('get', 'cm', '-A');
      expect(all.stdout).toMatch(/^NAMESPACE\s+NAME\s+DATA\s+AGE\n/);
      expect(all.stdout).toMatch(/^wire\s+a\s+1\s+/m);
      const labels = await kn('get', 'cm', '--show-labels');
      expect(labels.stdout).toMatch(/^a\s+1\s+\S+\s+app=x$/m);
      const wide = await kn('get', 'deploy,cm', '-o', 'wide');
      expect(wide.code, wide.stderr).toBe(0);
      expect(wide.stdout).toMatch(/configmap\/a\s+1\s+/);
    });
    it('get -l, --field-selector, --sort-by, --chunk-size=0 and 2', async () => {
      expect((await kn('get', 'cm', '-l', 'app=x', '-o', 'name')).stdout).toBe('configmap/a\nconfigmap/c\n');
      expect((await kn('get', 'cm', '--field-selector', 'metadata.name=b', '-o', 'name')).stdout).toBe(
        'configmap/b\n',
      );
      const sorted = await kn('get', 'cm', '-l', 'app', '--sort-by=.metadata.labels.app');
      expect(sorted.code, sorted.stderr).toBe(0);
      expect(
        sorted.stdout
          .trim()
          .split('\n')
          .slice(1)
          .map((l) => l.split(/\s+/)[0]),
      ).toEqual(['a', 'c', 'b']);
      for (const size of ['0', '2'])
        expect((await kn('get', 'cm', '-l', 'app', `--chunk-size=${size}`, '-o', 'name')).stdout).toBe(
          'configmap/a\nconfigmap/b\nconfigmap/c\n',
        );
      const chunkedTable = await k('get', 'cm', '-A', '--chunk-size=2', '-l', 'app');
      expect(chunkedTable.stdout.trim().split('\n')).toHaveLength(4);
    });
    it('get cm,ns prints kind/name; get all lists the "all" category', async () => {
      const two = await kn('get', 'cm,ns', '-l', 'app=y');
      expect(two.stdout).toMatch(/^configmap\/b\s+1\s+/m);
      await kn('create', 'deployment', 'web', '--image=nginx');
      await kn('create', 'service', 'clusterip', 'web', '--tcp=80:80');
      const all = await kn('get', 'all');
      expect(all.code, all.stderr).toBe(0);
      expect(all.stdout).toMatch(/^deployment\.apps\/web\s+/m);
      expect(all.stdout).toMatch(/^service\/web\s+ClusterIP\s+/m);
      expect(all.stdout).not.toContain('configmap/');
    });
    it('-o yaml | json | name | jsonpath | custom-columns', async () => {
      expect((await kn('get', 'cm', 'a', '-o', 'yaml')).stdout).toMatch(
        /^apiVersion: v1\ndata:\n {2}k: a\nkind: ConfigMap\n/,
      );
      const json = JSON.parse((await kn('get', 'cm', '-l', 'app=x', '-o', 'json')).stdout) as {
        kind: string;
        items: { kind: string }[];
      };
      expect(json.kind).toBe('List');
      expect(json.items.map((i) => i.kind)).toEqual(['ConfigMap', 'ConfigMap']);
      expect((await kn('get', 'cm', 'a', '-o', 'jsonpath={.data.k}')).stdout).toBe('a');
      const cc = await kn(
        'get',
        'cm',
        '-l',
        'app=x',
        '-o',
        'custom-columns=N:.metadata.name,APP:.metadata.labels.app',
      );
      expect(cc.stdout).toMatch(/^N\s+APP\na\s+x\nc\s+x\n$/);
    });
    it('get cm nope (NotFound), --ignore-not-found, and an empty list', async () => {
      const nope = await kn('get', 'cm', 'nope');
      expect(nope.code).toBe(1);
      expect(nope.stderr).toBe('Error from server (NotFound): configmaps "nope" not found\n');
      expect(await kn('get', 'cm', 'nope', '--ignore-not-found')).toMatchObject({ code: 0, stdout: '' });
      const empty = await k('-n', 'empty', 'get', 'deploy');
      expect(empty).toMatchObject({ code: 0, stdout: '' });
      expect(empty.stderr).toBe('No resources found in empty namespace.\n');
    });
  });

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
        api,
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

  describe('§6 auth / token / raw / impersonation', () => {
    it('auth can-i (resource, non-resource, denied), can-i --list, whoami with --as/--as-group/--as-uid', async () => {
      expect((await k('auth', 'can-i', 'get', 'pods')).stdout).toBe('yes\n');
      expect((await k('auth', 'can-i', 'get', '/healthz')).stdout).toBe('yes\n');
      const no = await k('auth', 'can-i', 'delete', 'secrets', '--as=nobody');
      expect(no.code).toBe(1);
      expect(no.stdout).toMatch(/^no\b/);
      const list = await k('auth', 'can-i', '--list', '--as=nobody');
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toMatch(/^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs/);
      expect(list.stdout).toMatch(/selfsubjectreviews\.authentication\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]/);
      expect(list.stdout).toMatch(/\s+\[\/healthz\]\s+\[\]\s+\[get\]/);
      const who = await k(
        'auth',
        'whoami',
        '--as=alice',
        '--as-group=devs',
        '--as-group=ops',
        '--as-uid=u-1',
      );
      expect(who.code, who.stderr).toBe(0);
      expect(who.stdout).toMatch(/Username\s+alice/);
      expect(who.stdout).toMatch(/UID\s+u-1/);
      expect(who.stdout).toMatch(/Groups\s+\[devs ops system:authenticated\]/);
    });
    it('create token (--duration, --audience, --bound-object-*) and its 404', async () => {
      // The default ServiceAccount is created by a controller right after the namespace.
      await waitFor(
        'the default ServiceAccount',
        async () =>
          (await api.request('GET', '/api/v1/namespaces/wire/serviceaccounts/default')).status === 200,
        10_000,
      );
      const t = await kn('create', 'token', 'default', '--duration=10m', '--audience=a1', '--audience=a2');
      expect(t.code, t.stderr).toBe(0);
      expect(t.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      const claims = JSON.parse(Buffer.from(t.stdout.split('.')[1] as string, 'base64url').toString()) as {
        aud: string[];
        exp: number;
        iat: number;
        sub: string;
      };
      expect(claims).toMatchObject({ aud: ['a1', 'a2'], sub: 'system:serviceaccount:wire:default' });
      expect(claims.exp - claims.iat).toBe(600);
      await kn('create', 'secret', 'generic', 'bound');
      const bound = await kn(
        'create',
        'token',
        'default',
        '--bound-object-kind=Secret',
        '--bound-object-name=bound',
      );
      expect(bound.code, bound.stderr).toBe(0);
      const nope = await kn('create', 'token', 'nope');
      expect(nope).toMatchObject({
        code: 1,
        stderr: 'error: failed to create token: serviceaccounts "nope" not found\n',
      });
    });
    it("get --raw '/livez?verbose' and a raw 404; --as forbidden; 401 for an unknown token", async () => {
      const raw = await k('get', '--raw', '/livez?verbose');
      expect(raw.code).toBe(0);
      expect(raw.stdout).toContain('livez check passed');
      const missing = await k('get', '--raw', '/no/such/path');
      expect(missing.code).toBe(1);
      expect(missing.stderr).toBe(
        'Error from server (NotFound): the server could not find the requested resource\n',
      );
      const forbidden = await kn('get', 'cm', '--as=forbidden');
      expect(forbidden).toMatchObject({
        code: 1,
        stderr:
          'Error from server (Forbidden): configmaps is forbidden: User "forbidden" cannot list resource "configmaps" in API group "" in the namespace "wire"\n',
      });
      const tokenConfig = join(dir, 'bad-token.kubeconfig');
      writeFileSync(
        tokenConfig,
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'Config',
          clusters: [{ name: 'c', cluster: { server: api.url, 'insecure-skip-tls-verify': true } }],
          users: [{ name: 'u', user: { token: 'not-a-token' } }],
          contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
          'current-context': 'x',
        }),
      );
      const unauth = await kubectl(['get', 'cm'], { kubeconfig: tokenConfig });
      expect(unauth.code).toBe(1);
      expect(unauth.stderr).toContain(
        'error: You must be logged in to the server (the server has asked for the client to provide credentials)',
      );
    });
  });

  describe('§7 delete --all / -l, explain', () => {
    it('delete cm -l sel and --all delete item by item; then "No resources found"', async () => {
      await k('create', 'ns', 'sweep');
      for (const n of ['s1', 's2', 's3']) await k('-n', 'sweep', 'create', 'cm', n);
      await k('-n', 'sweep', 'label', 'cm', 's1', 'pick=1');
      expect((await k('-n', 'sweep', 'delete', 'cm', '-l', 'pick=1')).stdout).toBe(
        'configmap "s1" deleted\n',
      );
      const all = await k('-n', 'sweep', 'delete', 'cm', '--all');
      expect(all.stdout).toBe('configmap "s2" deleted\nconfigmap "s3" deleted\n');
      const none = await k('-n', 'sweep', 'delete', 'cm', '--all');
      expect(none).toMatchObject({ code: 0, stdout: 'No resources found\n', stderr: '' });
    });
    it('explain configmap, configmap.data, --recursive', async () => {
      const top = await k('explain', 'configmap');
      expect(top.code, top.stderr).toBe(0);
      expect(top.stdout).toMatch(/^KIND:\s+ConfigMap\nVERSION:\s+v1\n/);
      expect(top.stdout).toMatch(/^ {2}data\t<map\[string\]string>$/m);
      const field = await k('explain', 'configmap.data');
      expect(field.stdout).toMatch(/^FIELD:\s+data <map\[string\]string>$/m);
      const rec = await k('explain', 'deployment.spec', '--recursive');
      expect(rec.code, rec.stderr).toBe(0);
      expect(rec.stdout).toMatch(/^FIELD: spec <Object>$/m);
      expect(rec.stdout).toMatch(/^ {2}replicas\t<integer>$/m);
      expect(rec.stdout).toMatch(/^ {6}containers\t<\[\]Object> -required-$/m);
    });
  });

  describe('§8 error rendering', () => {
    it('422 with details prints "The <Kind> "<name>" is invalid:" and one line per cause', async () => {
      const bad = file(
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: broken\n  namespace: wire\nspec:\n  replicas: -1\n  selector:\n    matchLabels: {app: a}\n  template:\n    metadata:\n      labels: {app: b}\n    spec:\n      containers: [{name: c, image: nginx}]\n',
      );
      const r = await k('apply', '-f', bad);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^The Deployment "broken" is invalid: \n\* spec\.replicas: Invalid value: -1: must be greater than or equal to 0\n\* spec\.template\.metadata\.labels: Invalid value: /,
      );
    });
  });
});
