import { encodeProtobuf } from '@orchard/codecs/protobuf';
import { orchFlavor } from '@orchard/meta';
import { startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cm, json, openWatch } from './lifecycle-helpers.js';

/**
 * The deletion lifecycle of spec doc 1 §3 end to end (orch flavor, plain HTTP so watches are easy
 * to read): each state transition with its watch events, delete options (§2.8), dry-run,
 * preconditions, finalizers, and deletecollection with selectors.
 */
describe('deletion lifecycle (spec doc 1 §3)', () => {
  let api: TestServer;
  const cms = '/api/v1/namespaces/default/configmaps';
  beforeAll(async () => {
    api = await startTestServer({ insecureHttp: true });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('Live without finalizers → removed at once: Status naming the object, DELETED event, name reusable', async () => {
    const w = await openWatch(api, `${cms}?fieldSelector=metadata.name%3Dplain`);
    const created = await api.request('POST', cms, { body: cm('plain') });
    expect(created.status).toBe(201);
    const uid = json<{ metadata: { uid: string } }>(created).metadata.uid;
    const del = await api.request('DELETE', `${cms}/plain`);
    expect(del.status).toBe(200);
    expect(del.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'plain', kind: 'configmaps', uid },
    });
    expect((await api.request('GET', `${cms}/plain`)).status).toBe(404);
    const events = await w.until(2);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
    expect((await api.request('POST', cms, { body: cm('plain') })).status).toBe(201);
    w.close();
  });

  it('Live with finalizers → Terminating → (last finalizer removed) → removed; timestamp fixed; no new finalizers', async () => {
    const w = await openWatch(api, `${cms}?fieldSelector=metadata.name%3Dheld`);
    await api.request('POST', cms, { body: cm('held', { finalizers: ['example.com/a', 'example.com/b'] }) });
    const del = await api.request('DELETE', `${cms}/held`);
    expect(del.status).toBe(200);
    const terminating = json<{ metadata: Record<string, unknown> }>(del);
    expect(terminating.metadata.deletionTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(terminating.metadata.deletionGracePeriodSeconds).toBe(0);
    expect(terminating.metadata.finalizers).toEqual(['example.com/a', 'example.com/b']);
    const got = await api.request('GET', `${cms}/held`);
    expect(json<{ metadata: Record<string, unknown> }>(got).metadata.deletionTimestamp).toBe(
      terminating.metadata.deletionTimestamp,
    );

    // A second delete does not move the timestamp, and writes nothing.
    await new Promise((r) => setTimeout(r, 1100));
    const again = await api.request('DELETE', `${cms}/held`);
    expect(again.status).toBe(200);
    expect(json<{ metadata: Record<string, unknown> }>(again).metadata).toMatchObject({
      deletionTimestamp: terminating.metadata.deletionTimestamp,
      resourceVersion: terminating.metadata.resourceVersion,
    });

    // No new finalizers once terminating (422, upstream message); other changes are allowed.
    const add = await api.request('PATCH', `${cms}/held`, {
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ metadata: { finalizers: ['example.com/a', 'example.com/b', 'example.com/c'] } }),
    });
    expect(add.status).toBe(422);
    expect(json<{ message: string }>(add).message).toBe(
      'ConfigMap "held" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/c"}',
    );
    const label = await api.request('PATCH', `${cms}/held`, {
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ metadata: { labels: { seen: 'yes' } } }),
    });
    expect(label.status).toBe(200);
    expect(json<{ metadata: Record<string, unknown> }>(label).metadata).toMatchObject({
      deletionTimestamp: terminating.metadata.deletionTimestamp,
      deletionGracePeriodSeconds: 0,
    });

    // Removing one finalizer keeps it; removing the last removes it.
    const one = await api.request('PATCH', `${cms}/held`, {
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ metadata: { finalizers: ['example.com/b'] } }),
    });
    expect(one.status).toBe(200);
    expect((await api.request('GET', `${cms}/held`)).status).toBe(200);
    const last = await api.request('PATCH', `${cms}/held`, {
      headers: { 'content-type': 'application/json-patch+json' },
      body: JSON.stringify([{ op: 'remove', path: '/metadata/finalizers' }]),
    });
    expect(last.status).toBe(200);
    expect((await api.request('GET', `${cms}/held`)).status).toBe(404);

    // create, delete (Terminating), label, one finalizer removed, last finalizer removed.
    const events = await w.until(5);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'MODIFIED', 'MODIFIED', 'DELETED']);
    expect(events[1]?.object.metadata.deletionTimestamp).toBe(terminating.metadata.deletionTimestamp);
    expect(events[4]?.object.metadata.finalizers).toEqual(['example.com/b']);
    await new Promise((r) => setTimeout(r, 30));
    expect(w.events).toHaveLength(5);
    // The name is reusable.
    const re = await api.request('POST', cms, { body: cm('held') });
    expect(re.status).toBe(201);
    expect(json<{ metadata: Record<string, unknown> }>(re).metadata.deletionTimestamp).toBeUndefined();
    w.close();
  });

  it('PUT that removes the last finalizer answers with the object and removes it', async () => {
    await api.request('POST', cms, { body: cm('put-fin', { finalizers: ['example.com/x'] }) });
    const t = json<{ metadata: Record<string, unknown> }>(await api.request('DELETE', `${cms}/put-fin`));
    const body = { ...cm('put-fin'), metadata: { ...t.metadata, finalizers: [] } };
    const put = await api.request('PUT', `${cms}/put-fin`, { body });
    expect(put.status).toBe(200);
    expect(json<{ metadata: { name: string } }>(put).metadata.name).toBe('put-fin');
    expect((await api.request('GET', `${cms}/put-fin`)).status).toBe(404);
  });

  it('dryRun=All deletes nothing and sends no event (query and body)', async () => {
    const w = await openWatch(api, `${cms}?fieldSelector=metadata.name%3Ddry`);
    await api.request('POST', cms, { body: cm('dry') });
    const q = await api.request('DELETE', `${cms}/dry?dryRun=All`);
    expect(q.status).toBe(200);
    expect(json<{ status: string }>(q).status).toBe('Success');
    const b = await api.request('DELETE', `${cms}/dry`, { body: { dryRun: ['All'] } });
    expect(b.status).toBe(200);
    await api.request('POST', cms, { body: cm('dry-fin', { finalizers: ['example.com/x'] }) });
    const f = await api.request('DELETE', `${cms}/dry-fin?dryRun=All`);
    expect(json<{ metadata: Record<string, unknown> }>(f).metadata.deletionTimestamp).toBeTruthy();
    expect(
      json<{ metadata: Record<string, unknown> }>(await api.request('GET', `${cms}/dry-fin`)).metadata
        .deletionTimestamp,
    ).toBeUndefined();
    expect((await api.request('GET', `${cms}/dry`)).status).toBe(200);
    // The next event after ADDED is the real delete.
    await api.request('DELETE', `${cms}/dry`);
    const events = await w.until(2);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
    await new Promise((r) => setTimeout(r, 50));
    expect(w.events).toHaveLength(2);
    w.close();
  });

  it('preconditions: uid and resourceVersion must hold (409 with upstream messages)', async () => {
    const c = json<{ metadata: { uid: string; resourceVersion: string } }>(
      await api.request('POST', cms, { body: cm('pre') }),
    );
    const badUid = await api.request('DELETE', `${cms}/pre`, { body: { preconditions: { uid: 'nope' } } });
    expect(badUid.status).toBe(409);
    expect(json(badUid)).toMatchObject({
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on ConfigMap "pre": the UID in the precondition (nope) does not match the UID in record (${c.metadata.uid}). The object might have been deleted and then recreated`,
    });
    const badRv = await api.request('DELETE', `${cms}/pre`, {
      body: { preconditions: { resourceVersion: '1' } },
    });
    expect(badRv.status).toBe(409);
    expect(json<{ message: string }>(badRv).message).toBe(
      `Operation cannot be fulfilled on ConfigMap "pre": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${c.metadata.resourceVersion}). The object might have been modified`,
    );
    expect((await api.request('GET', `${cms}/pre`)).status).toBe(200);
    const ok = await api.request('DELETE', `${cms}/pre`, {
      body: {
        kind: 'DeleteOptions',
        apiVersion: 'v1',
        preconditions: { uid: c.metadata.uid, resourceVersion: c.metadata.resourceVersion },
      },
    });
    expect(ok.status).toBe(200);
  });

  it('invalid delete options: 422 DeleteOptions with upstream messages; 400 for wrong types', async () => {
    await api.request('POST', cms, { body: cm('opts') });
    const both = await api.request('DELETE', `${cms}/opts`, {
      body: { orphanDependents: true, propagationPolicy: 'Orphan' },
    });
    expect(both.status).toBe(422);
    expect(json(both)).toMatchObject({
      reason: 'Invalid',
      message:
        'DeleteOptions.meta.orch.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
      details: { kind: 'DeleteOptions', group: 'meta.orch.io' },
    });
    const bad = await api.request('DELETE', `${cms}/opts?propagationPolicy=Sideways`);
    expect(bad.status).toBe(422);
    expect(json<{ message: string }>(bad).message).toBe(
      'DeleteOptions.meta.orch.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
    );
    const dry = await api.request('DELETE', `${cms}/opts`, { body: { dryRun: ['Maybe'] } });
    expect(dry.status).toBe(422);
    expect(json<{ message: string }>(dry).message).toContain('dryRun: Unsupported value: []string{"Maybe"}');
    const type = await api.request('DELETE', `${cms}/opts`, { body: { gracePeriodSeconds: 'soon' } });
    expect(type.status).toBe(400);
    // The deprecated orphanDependents alone is accepted.
    expect((await api.request('DELETE', `${cms}/opts`, { body: { orphanDependents: true } })).status).toBe(
      200,
    );
  });

  it('DeleteOptions in a YAML body', async () => {
    await api.request('POST', cms, { body: cm('yaml-opts', { finalizers: ['example.com/x'] }) });
    const r = await api.request('DELETE', `${cms}/yaml-opts`, {
      headers: { 'content-type': 'application/yaml' },
      body: 'kind: DeleteOptions\napiVersion: v1\npropagationPolicy: Foreground\n',
    });
    expect(r.status).toBe(200);
    expect(json<{ metadata: { finalizers: string[] } }>(r).metadata.finalizers).toEqual([
      'example.com/x',
      'foregroundDeletion',
    ]);
  });

  it('DeleteOptions in a Protobuf body (what typed clients send)', async () => {
    const c = json<{ metadata: { uid: string } }>(
      await api.request('POST', cms, { body: cm('pb-opts', { finalizers: ['example.com/x'] }) }),
    );
    const body = encodeProtobuf(
      {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        propagationPolicy: 'Orphan',
        preconditions: { uid: c.metadata.uid },
      } as never,
      orchFlavor,
    );
    const r = await api.request('DELETE', `${cms}/pb-opts`, {
      headers: { 'content-type': 'application/vnd.orch.protobuf' },
      body,
    });
    expect(r.status).toBe(200);
    expect(json<{ metadata: { finalizers: string[] } }>(r).metadata.finalizers).toEqual([
      'example.com/x',
      'orphan',
    ]);
    const wrong = encodeProtobuf(
      { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: 'other' } } as never,
      orchFlavor,
    );
    const conflict = await api.request('DELETE', `${cms}/pb-opts`, {
      headers: { 'content-type': 'application/vnd.orch.protobuf' },
      body: wrong,
    });
    expect(conflict.status).toBe(409);
  });

  it('gracePeriodSeconds is accepted (types without graceful deletion are removed at once)', async () => {
    await api.request('POST', cms, { body: cm('grace') });
    const r = await api.request('DELETE', `${cms}/grace?gracePeriodSeconds=30`);
    expect(r.status).toBe(200);
    expect((await api.request('GET', `${cms}/grace`)).status).toBe(404);
  });

  it('202 when the object stays and orphanDependents=false asked for cascading deletion', async () => {
    await api.request('POST', cms, { body: cm('cascade', { finalizers: ['example.com/x'] }) });
    const r = await api.request('DELETE', `${cms}/cascade`, { body: { orphanDependents: false } });
    expect(r.status).toBe(202);
    expect(json<{ metadata: Record<string, unknown> }>(r).metadata.deletionTimestamp).toBeTruthy();
  });

  it('kinds that return the deleted object upstream (serviceaccounts) answer with it', async () => {
    const sas = '/api/v1/namespaces/default/serviceaccounts';
    await api.request('POST', sas, { body: { metadata: { name: 'robot' } } });
    const r = await api.request('DELETE', `${sas}/robot`);
    expect(r.status).toBe(200);
    expect(json(r)).toMatchObject({ kind: 'ServiceAccount', metadata: { name: 'robot' } });
    expect((await api.request('GET', `${sas}/robot`)).status).toBe(404);
  });

  it('pods delete gracefully: scheduled ones stay Terminating for their grace period; period 0 removes them', async () => {
    const pods = '/api/v1/namespaces/default/pods';
    const pod = (name: string, spec: Record<string, unknown>) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec },
    });
    // Unscheduled: marked (MODIFIED) then removed (DELETED) at once; the answer is the pod.
    const w = await openWatch(api, `${pods}?fieldSelector=metadata.name%3Dloose`);
    expect((await api.request('POST', pods, { body: pod('loose', {}) })).status).toBe(201);
    const r0 = await api.request('DELETE', `${pods}/loose`);
    expect(r0.status).toBe(200);
    expect(json(r0)).toMatchObject({
      kind: 'Pod',
      metadata: { name: 'loose', deletionGracePeriodSeconds: 0 },
    });
    expect((await api.request('GET', `${pods}/loose`)).status).toBe(404);
    expect((await w.until(3)).map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    w.close();

    // Scheduled: the grace period (terminationGracePeriodSeconds) is kept.
    await api.request('POST', pods, {
      body: pod('bound', { nodeName: 'n1', terminationGracePeriodSeconds: 60 }),
    });
    const before = Date.now();
    const r1 = await api.request('DELETE', `${pods}/bound`);
    expect(r1.status).toBe(200);
    const m1 = json<{
      metadata: { deletionTimestamp: string; deletionGracePeriodSeconds: number; resourceVersion: string };
    }>(r1).metadata;
    expect(m1.deletionGracePeriodSeconds).toBe(60);
    expect(Date.parse(m1.deletionTimestamp) - before).toBeGreaterThan(55_000);
    // A longer or equal period changes nothing; a shorter one moves the timestamp earlier.
    const r2 = await api.request('DELETE', `${pods}/bound?gracePeriodSeconds=90`);
    expect(json<{ metadata: { resourceVersion: string } }>(r2).metadata.resourceVersion).toBe(
      m1.resourceVersion,
    );
    const r3 = await api.request('DELETE', `${pods}/bound`, { body: { gracePeriodSeconds: 30 } });
    const m3 = json<{ metadata: { deletionTimestamp: string; deletionGracePeriodSeconds: number } }>(
      r3,
    ).metadata;
    expect(m3.deletionGracePeriodSeconds).toBe(30);
    expect(Date.parse(m1.deletionTimestamp) - Date.parse(m3.deletionTimestamp)).toBe(30_000);
    expect((await api.request('GET', `${pods}/bound`)).status).toBe(200);
    // What the node agent (or `kubectl delete --grace-period=0 --force`) sends.
    const r4 = await api.request('DELETE', `${pods}/bound`, { body: { gracePeriodSeconds: 0 } });
    expect(r4.status).toBe(200);
    expect((await api.request('GET', `${pods}/bound`)).status).toBe(404);
  });

  it('404 for a missing object', async () => {
    const r = await api.request('DELETE', `${cms}/absent`);
    expect(r.status).toBe(404);
    expect(json<{ message: string }>(r).message).toBe('configmaps "absent" not found');
  });

  it('deletecollection with a label selector honours finalizers per object and applies the options to each', async () => {
    await api.request('POST', cms, { body: cm('x1', { labels: { app: 'x' } }) });
    await api.request('POST', cms, { body: cm('x2', { labels: { app: 'x' } }) });
    await api.request('POST', cms, {
      body: cm('x3', { labels: { app: 'x' }, finalizers: ['example.com/x'] }),
    });
    await api.request('POST', cms, { body: cm('y1', { labels: { app: 'y' } }) });
    const dry = await api.request('DELETE', `${cms}?labelSelector=app%3Dx&dryRun=All`);
    expect(dry.status).toBe(200);
    expect((await api.request('GET', `${cms}/x1`)).status).toBe(200);
    const r = await api.request('DELETE', `${cms}?labelSelector=app%3Dx`);
    expect(r.status).toBe(200);
    const list = json<{ kind: string; items: { metadata: { name: string } }[] }>(r);
    expect(list.kind).toBe('ConfigMapList');
    expect(list.items.map((i) => i.metadata.name).sort()).toEqual(['x1', 'x2', 'x3']);
    expect((await api.request('GET', `${cms}/x1`)).status).toBe(404);
    expect((await api.request('GET', `${cms}/x2`)).status).toBe(404);
    const x3 = json<{ metadata: Record<string, unknown> }>(await api.request('GET', `${cms}/x3`));
    expect(x3.metadata.deletionTimestamp).toBeTruthy();
    expect((await api.request('GET', `${cms}/y1`)).status).toBe(200);
    // Field selectors work too.
    const f = await api.request('DELETE', `${cms}?fieldSelector=metadata.name%3Dy1`);
    expect(json<{ items: unknown[] }>(f).items).toHaveLength(1);
    expect((await api.request('GET', `${cms}/y1`)).status).toBe(404);
  });
});
