import { kubectl, kubectlAvailable, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Authorization through stock kubectl 1.32 (`--flavor kubernetes`): `kubectl create role/rolebinding/
 * clusterrole/clusterrolebinding` (Protobuf bodies), `kubectl auth can-i` single and `--list`
 * (Protobuf SelfSubjectAccessReview/SelfSubjectRulesReview), `--as` impersonation by the admin, and
 * the escalation guard as kubectl shows it. Users are client certificates from the test CA.
 */
describe.skipIf(!kubectlAvailable())('authorization with kubectl', () => {
  let api: TestServer;
  let admin: (args: string[]) => ReturnType<typeof kubectl>;
  let asUser: (user: string, args: string[]) => ReturnType<typeof kubectl>;
  const configs = new Map<string, string>();
  beforeAll(async () => {
    api = await startTestServer({ flavor: 'kubernetes' });
    admin = (args) => kubectl(args, { kubeconfig: api.kubeconfigPath });
    asUser = async (user, args) => {
      let cfg = configs.get(user);
      if (!cfg) {
        cfg = await api.kubeconfigFor({ username: user });
        configs.set(user, cfg);
      }
      return kubectl(args, { kubeconfig: cfg });
    };
    expect((await admin(['create', 'namespace', 'dev'])).code).toBe(0);
  });
  afterAll(async () => {
    await api.stop();
  });

  /** `kubectl -n dev create …` as the admin; it must succeed. */
  const adminCreates = async (...args: string[]) => {
    const r = await admin(['-n', 'dev', 'create', ...args]);
    expect(r.code, r.stderr).toBe(0);
  };
  /** `kubectl -n dev create …` as erin, the user the escalation test grants step by step. */
  const erinCreates = (...args: string[]) => asUser('erin', ['-n', 'dev', 'create', ...args]);
  // Waits until RBAC decisions reflect every write so far (the admin's last create).
  const sync = async () => {
    const r = await api.request('GET', '/api/v1/namespaces');
    await api.server.authorization.synced(
      Number((r.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion),
    );
  };

  it('kubectl create role/rolebinding/clusterrole/clusterrolebinding, then can-i answers per user', async () => {
    for (const args of [
      ['-n', 'dev', 'create', 'role', 'pod-reader', '--verb=get,list,watch', '--resource=pods'],
      ['-n', 'dev', 'create', 'rolebinding', 'alice-reads', '--role=pod-reader', '--user=alice'],
      ['create', 'clusterrole', 'ns-reader', '--verb=get,list', '--resource=namespaces'],
      ['create', 'clusterrolebinding', 'bob-ns', '--clusterrole=ns-reader', '--user=bob'],
      [
        '-n',
        'dev',
        'create',
        'role',
        'one-cm',
        '--verb=get',
        '--resource=configmaps',
        '--resource-name=settings',
      ],
      ['-n', 'dev', 'create', 'rolebinding', 'carol-one', '--role=one-cm', '--user=carol'],
    ]) {
      const r = await admin(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    const rb = await admin([
      '-n',
      'dev',
      'get',
      'rolebinding',
      'alice-reads',
      '-o',
      'jsonpath={.roleRef.name}',
    ]);
    expect(rb.stdout).toBe('pod-reader');
    await sync();
    const table: [string, string[], 'yes' | 'no'][] = [
      ['alice', ['get', 'pods', '-n', 'dev'], 'yes'],
      ['alice', ['watch', 'pods', '-n', 'dev'], 'yes'],
      ['alice', ['delete', 'pods', '-n', 'dev'], 'no'],
      ['alice', ['get', 'pods', '-n', 'default'], 'no'],
      ['alice', ['list', 'namespaces'], 'no'],
      ['bob', ['list', 'namespaces'], 'yes'],
      ['bob', ['get', 'pods', '-n', 'dev'], 'no'],
      ['carol', ['get', 'configmaps/settings', '-n', 'dev'], 'yes'],
      ['carol', ['get', 'configmaps/other', '-n', 'dev'], 'no'],
      ['carol', ['get', '/version'], 'yes'],
      ['carol', ['get', '/metrics'], 'no'],
      ['dave', ['create', 'selfsubjectaccessreviews.authorization.k8s.io'], 'yes'],
    ];
    for (const [user, args, want] of table) {
      const r = await asUser(user, ['auth', 'can-i', ...args]);
      expect(r.stdout.trim(), `${user} can-i ${args.join(' ')}: ${r.stderr}`).toBe(want);
      expect(r.code).toBe(want === 'yes' ? 0 : 1);
    }
    // The admin asks on a user's behalf (--as: the admin is in system:masters, so it may impersonate).
    const asAlice = await admin(['auth', 'can-i', 'list', 'pods', '-n', 'dev', '--as=alice']);
    expect(asAlice.stdout.trim()).toBe('yes');
    const asNobody = await admin(['auth', 'can-i', 'list', 'pods', '-n', 'dev', '--as=nobody']);
    expect(asNobody.stdout.trim()).toBe('no');
  });

  it('kubectl auth can-i --list shows the rules a user holds in a namespace', async () => {
    const r = await asUser('alice', ['auth', 'can-i', '--list', '-n', 'dev']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^pods\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    expect(r.stdout).toMatch(/selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]/);
    expect(r.stdout).toMatch(/\s\[\/version\]\s+\[\]\s+\[get\]/);
    const other = await asUser('alice', ['auth', 'can-i', '--list', '-n', 'default']);
    expect(other.stdout).not.toMatch(/^pods\s/m);
  });

  it("a user denied a request sees the server's 403 through kubectl", async () => {
    const r = await asUser('alice', ['get', 'secrets', '-n', 'dev']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "dev"',
    );
    const ok = await asUser('alice', ['get', 'pods', '-n', 'dev']);
    expect(ok.code, ok.stderr).toBe(0);
    const imp = await asUser('alice', ['get', 'pods', '-n', 'dev', '--as=bob']);
    expect(imp.stderr).toContain('User "alice" cannot impersonate resource "users"');
  });

  it('kubectl create role through a user with create roles: narrower works, broader is refused; escalate lifts it', async () => {
    await adminCreates(
      'role',
      'role-maker',
      '--verb=create',
      '--resource=roles.rbac.authorization.k8s.io,rolebindings.rbac.authorization.k8s.io',
    );
    await adminCreates('rolebinding', 'erin-maker', '--role=role-maker', '--user=erin');
    await adminCreates('rolebinding', 'erin-reads', '--role=pod-reader', '--user=erin');
    await sync();
    const narrow = await erinCreates('role', 'narrow', '--verb=get', '--resource=pods');
    expect(narrow.code, narrow.stderr).toBe(0);
    const broad = await erinCreates('role', 'broad', '--verb=delete', '--resource=pods');
    expect(broad.code).toBe(1);
    expect(broad.stderr).toContain('is attempting to grant RBAC permissions not currently held');
    expect(broad.stderr).toContain('{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}');
    const bindEdit = await erinCreates('rolebinding', 'e', '--clusterrole=edit', '--user=erin');
    expect(bindEdit.code).toBe(1);
    await adminCreates(
      'role',
      'lift',
      '--verb=escalate,bind',
      '--resource=roles.rbac.authorization.k8s.io,clusterroles.rbac.authorization.k8s.io',
    );
    await adminCreates('rolebinding', 'erin-lift', '--role=lift', '--user=erin');
    await sync();
    const again = await erinCreates('role', 'broad', '--verb=delete', '--resource=pods');
    expect(again.code, again.stderr).toBe(0);
    const bound = await erinCreates('rolebinding', 'e', '--clusterrole=edit', '--user=erin');
    expect(bound.code, bound.stderr).toBe(0);
  });
});
