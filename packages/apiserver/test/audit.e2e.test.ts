import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Flavor } from '@orchard/meta';
import { createMemoryStore } from '@orchard/store';
import { startTestServer, type TestServer, waitFor } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAuditPolicy } from '../src/audit/policy.js';
import { createApiServer } from '../src/server.js';
import { flavors } from './helpers/auth-server.js';

/**
 * Audit logging (issue 16 item 7): one JSON line per event of the `audit.<domain>/v1` Event, at the
 * level the first matching policy rule gives; refused requests audited with the authorizer's
 * decision; watches with ResponseStarted; bodies logged as data, never at Metadata level.
 */
const policyText = (flavor: Flavor) => `
apiVersion: ${flavor.group('audit')}/v1
kind: Policy
rules:
  - level: None
    nonResourceURLs: ["/livez*", "/readyz*", "/healthz*"]
  - level: None
    users: ["system:apiserver"]
  - level: Metadata
    resources: [{ group: "", resources: ["secrets"] }]
  - level: Request
    verbs: ["watch"]
    resources: [{ group: "", resources: ["configmaps"] }]
  - level: RequestResponse
    resources: [{ group: "", resources: ["configmaps"] }]
    omitManagedFields: true
  - level: Metadata
`;

type Event = Record<string, any>;

describe.each(flavors)('audit ($name flavor)', (flavor) => {
  let dir: string;
  let log: string;
  let api: TestServer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orchard-audit-'));
    log = join(dir, 'audit.log');
    api = await startTestServer({
      flavor: flavor.name,
      storage: 'memory',
      server: {
        audit: { policy: parseAuditPolicy(policyText(flavor), 'policy.yaml', flavor), logPath: log },
        // A token method, so that an unknown bearer token is a 401 rather than anonymous.
        authentication: { tokenFile: [{ token: 'known-token', user: { username: 'tok', groups: [] } }] },
      },
    });
  });
  afterAll(async () => {
    await api.stop();
    await rm(dir, { recursive: true, force: true });
  });

  async function events(): Promise<Event[]> {
    const text = await readFile(log, 'utf8').catch(() => '');
    return text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Event);
  }

  /** The events of one audit ID once `stages` are all written. */
  function eventsOf(id: string, stages: string[]): Promise<Event[]> {
    return waitFor(
      `audit events ${stages.join(', ')} of ${id}`,
      async () => {
        const mine = (await events()).filter((e) => e.auditID === id);
        return stages.every((s) => mine.some((e) => e.stage === s)) ? mine : undefined;
      },
      20_000,
    );
  }

  const cm = (name: string, data: Record<string, string>) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'default' },
    data,
  });

  describe('audit log', () => {
    it('records a create at RequestResponse: both stages, bodies, objectRef, Audit-ID header', async () => {
      const r = await api.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: cm('a1', { k: 'v1' }),
      });
      expect(r.status).toBe(201);
      const id = r.headers['audit-id'] as string;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const [received, complete] = await eventsOf(id, ['RequestReceived', 'ResponseComplete']);
      expect(received).toMatchObject({
        kind: 'Event',
        apiVersion: `${flavor.group('audit')}/v1`,
        level: 'RequestResponse',
        stage: 'RequestReceived',
        requestURI: '/api/v1/namespaces/default/configmaps',
        verb: 'create',
        user: { username: 'admin' },
        objectRef: { resource: 'configmaps', namespace: 'default', apiVersion: 'v1' },
      });
      expect(received?.responseStatus).toBeUndefined();
      expect(received?.sourceIPs).toContain('127.0.0.1');
      expect(received?.requestReceivedTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      expect(complete).toMatchObject({
        stage: 'ResponseComplete',
        responseStatus: { metadata: {}, code: 201 },
        requestObject: { kind: 'ConfigMap', data: { k: 'v1' } },
        responseObject: { kind: 'ConfigMap', metadata: { name: 'a1' }, data: { k: 'v1' } },
        annotations: { [`${flavor.group('authorization')}/decision`]: 'allow' },
      });
      // omitManagedFields: the stored object's managedFields are left out of the event.
      expect(complete?.responseObject.metadata.managedFields).toBeUndefined();
    });

    it('uses the client’s Audit-ID and answers with it', async () => {
      const r = await api.request('GET', '/api/v1/namespaces/default/configmaps/a1', {
        headers: { 'Audit-ID': 'my-trace-0001' },
      });
      expect(r.status).toBe(200);
      expect(r.headers['audit-id']).toBe('my-trace-0001');
      const [e] = await eventsOf('my-trace-0001', ['ResponseComplete']);
      expect(e?.verb).toBe('get');
    });

    it('records a refused request with the decision and the 403 Status, at the level its rule gives', async () => {
      const r = await api.request('GET', '/api/v1/namespaces/default/secrets', {
        as: { username: 'mallory' },
      });
      expect(r.status).toBe(403);
      const mine = await eventsOf(r.headers['audit-id'] as string, ['ResponseComplete']);
      const done = mine.find((e) => e.stage === 'ResponseComplete');
      expect(done).toMatchObject({
        level: 'Metadata',
        verb: 'list',
        user: { username: 'mallory', groups: ['system:authenticated'] },
        objectRef: { resource: 'secrets', namespace: 'default' },
        responseStatus: { status: 'Failure', reason: 'Forbidden', code: 403 },
        annotations: { [`${flavor.group('authorization')}/decision`]: 'forbid' },
      });
      expect(done?.responseStatus.message).toContain('cannot list resource "secrets"');
      expect(done?.annotations[`${flavor.group('authorization')}/reason`]).toBeTypeOf('string');
    });

    it('records a watch with RequestReceived, ResponseStarted and ResponseComplete', async () => {
      const r = await api.request('GET', '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1');
      expect(r.status).toBe(200);
      const mine = await eventsOf(r.headers['audit-id'] as string, [
        'RequestReceived',
        'ResponseStarted',
        'ResponseComplete',
      ]);
      expect(mine.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
      expect(mine.every((e) => e.level === 'Request' && e.verb === 'watch')).toBe(true);
      expect(mine[1]?.responseStatus).toEqual({ metadata: {}, code: 200 });
      expect(mine[2]?.responseObject).toBeUndefined();
    });

    it('never writes a Secret’s data at Metadata level', async () => {
      const secret = 'c2VjcmV0LXRoYXQtbXVzdC1ub3QtbGVhaw==';
      const r = await api.request('POST', '/api/v1/namespaces/default/secrets', {
        body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, data: { password: secret } },
      });
      expect(r.status).toBe(201);
      const mine = await eventsOf(r.headers['audit-id'] as string, ['ResponseComplete']);
      expect(
        mine.every(
          (e) => e.level === 'Metadata' && e.requestObject === undefined && e.responseObject === undefined,
        ),
      ).toBe(true);
      expect(await readFile(log, 'utf8')).not.toContain(secret);
    });

    it('keeps hostile keys as data: __proto__ in a logged body pollutes nothing', async () => {
      const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p1","namespace":"default","labels":{"__proto__":"x"}},"data":{"__proto__":"y","constructor":"z"}}`;
      const r = await api.raw('POST', '/api/v1/namespaces/default/configmaps', {
        body,
        headers: { 'content-type': 'application/json' },
      });
      const id = r.headers['audit-id'] as string;
      const mine = await eventsOf(id, ['ResponseComplete']);
      const done = mine.find((e) => e.stage === 'ResponseComplete') as Event;
      expect(Object.hasOwn(done.requestObject.data, '__proto__')).toBe(true);
      expect(Object.getOwnPropertyDescriptor(done.requestObject.data, '__proto__')?.value).toBe('y');
      expect(({} as Record<string, unknown>).x).toBeUndefined();
      expect(Object.getPrototypeOf(done.requestObject.data)).toBe(Object.prototype);
    });

    it('logs a large body once per event and answers normally', async () => {
      const big = 'x'.repeat(900 * 1024);
      const r = await api.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: cm('big', { big }),
      });
      expect(r.status).toBe(201);
      const mine = await eventsOf(r.headers['audit-id'] as string, ['ResponseComplete']);
      const done = mine.find((e) => e.stage === 'ResponseComplete') as Event;
      expect(done.requestObject.data.big).toHaveLength(big.length);
      expect(done.responseObject.data.big).toHaveLength(big.length);
    });
  });

  describe('audit of failures', () => {
    it('records a request refused by authentication (401) with no user, as upstream', async () => {
      const r = await api.request('GET', '/api/v1/namespaces/default/configmaps', {
        anonymous: true,
        headers: { authorization: 'Bearer not-a-valid-token' },
      });
      expect(r.status).toBe(401);
      const [e] = await eventsOf(r.headers['audit-id'] as string, ['ResponseStarted']);
      expect(e).toMatchObject({
        level: 'RequestResponse',
        stage: 'ResponseStarted',
        user: {},
        responseStatus: { code: 401, reason: 'Unauthorized' },
      });
    });

    it('writes Panic, not ResponseComplete, when serving fails unexpectedly', async () => {
      api.server.writePipeline.insertBefore('validation', {
        name: 'explode-for-audit-test',
        operations: ['create'],
        run: (w) => {
          if (w.obj.metadata?.name === 'boom') throw new Error('kaboom');
        },
      });
      const r = await api.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('boom', {}) });
      expect(r.status).toBe(500);
      const mine = await eventsOf(r.headers['audit-id'] as string, ['Panic']);
      expect(mine.map((e) => e.stage)).toEqual(['RequestReceived', 'Panic']);
      expect(mine[1]?.responseStatus).toMatchObject({ code: 500, reason: 'InternalError' });
      expect(mine[1]?.responseStatus.message).toContain('kaboom');
    });
  });

  describe('audit annotations of the unsafe delete', () => {
    it('marks a delete with ignoreStoreReadErrorWithClusterBreakingPotential, as upstream', async () => {
      const store = createMemoryStore();
      const unsafeLog = join(dir, 'unsafe.log');
      const server = await startTestServer({
        flavor: flavor.name,
        server: {
          store,
          featureGates: { AllowUnsafeMalformedObjectDeletion: true },
          audit: { policy: parseAuditPolicy(policyText(flavor), 'policy.yaml', flavor), logPath: unsafeLog },
          logger: { info: () => {}, error: () => {} },
        },
      });
      try {
        await store.create('/core/configmaps/default/bad', new TextEncoder().encode('\u0000not json{'));
        const r = await server.request(
          'DELETE',
          '/api/v1/namespaces/default/configmaps/bad?ignoreStoreReadErrorWithClusterBreakingPotential=true',
        );
        expect(r.status, r.text).toBe(200);
        const id = r.headers['audit-id'] as string;
        const done = await waitFor(
          'the unsafe delete audit event',
          async () =>
            (await readFile(unsafeLog, 'utf8').catch(() => ''))
              .split('\n')
              .filter((l) => l !== '')
              .map((l) => JSON.parse(l) as Event)
              .find((e) => e.auditID === id && e.stage === 'ResponseComplete'),
          20_000,
        );
        expect(done.annotations).toMatchObject({
          [`${flavor.group('apiserver')}/unsafe-delete-ignore-read-error`]: '',
          [`${flavor.group('authorization')}/decision`]: 'allow',
        });
      } finally {
        await server.stop();
        await store.close();
      }
    });
  });

  describe('audit policy at start', () => {
    it('refuses a malformed policy file with a message naming the file and field', async () => {
      const file = join(dir, 'bad.yaml');
      await writeFile(
        file,
        `apiVersion: ${flavor.group('audit')}/v1\nkind: Policy\nrules:\n  - level: Loud\n  - level: None\n    colour: red\n`,
      );
      expect(() => createApiServer({ flavor, audit: { policyFile: file, logPath: '-' } })).toThrow(
        /bad\.yaml: rules\[1\]\.colour: unknown field/,
      );
      await writeFile(
        file,
        `apiVersion: ${flavor.group('audit')}/v1\nkind: Policy\nrules:\n  - level: Loud\n`,
      );
      expect(() => createApiServer({ flavor, audit: { policyFile: file, logPath: '-' } })).toThrow(
        'bad.yaml: rules[0].level: Unsupported value: "Loud": supported values: "None", "Metadata", "Request", "RequestResponse"',
      );
    });
  });
});
