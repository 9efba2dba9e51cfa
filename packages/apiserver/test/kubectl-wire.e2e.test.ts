import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubectl, kubectlAvailable, waitFor } from '@orchard/testing';
import { describe, expect, it } from 'vitest';
import { useWireServer } from './helpers/kubectl-wire.js';

/**
 * The commands of ../shared/clients/kubectl-wire.md §1, §2 and §6–§8 (discovery, get, auth, token,
 * raw, impersonation, delete --all, explain, error rendering), run with stock kubectl 1.32 against
 * the reference server under `--flavor kubernetes`, asserting the output the document records. §3
 * (watch) is in kubectl-wire-watch.e2e.test.ts, §4–§5 (writes, apply) in
 * kubectl-wire-writes.e2e.test.ts; docs/clients.md maps every command to its test. kubectl speaks
 * only the kubernetes flavor's names, so there is no orch pass; the same HTTP behaviours are covered
 * under both flavors by the suites named in docs/clients.md.
 */
describe.skipIf(!kubectlAvailable())('kubectl-wire.md §1, §2, §6–§8 (kubernetes flavor)', () => {
  const { api, dir, k, kn, file } = useWireServer();
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
          (await api().request('GET', '/api/v1/namespaces/wire/serviceaccounts/default')).status === 200,
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
          clusters: [{ name: 'c', cluster: { server: api().url, 'insecure-skip-tls-verify': true } }],
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
