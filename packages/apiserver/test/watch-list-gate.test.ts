import { startTestServer } from '@orchard/testing';
import { describe, expect, it } from 'vitest';

// sendInitialEvents sits behind the WatchList gate (beta in 1.32, on by default), as upstream.
describe('WatchList feature gate', () => {
  it('off: a watch with sendInitialEvents answers 422 Invalid naming the gate; a plain watch still works', async () => {
    const api = await startTestServer({ insecureHttp: true, server: { featureGates: { WatchList: false } } });
    try {
      const res = await api.request(
        'GET',
        '/api/v1/namespaces/default/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=1',
      );
      expect(res.status).toBe(422);
      const status = res.json as { kind: string; reason: string; message: string };
      expect(status.kind).toBe('Status');
      expect(status.reason).toBe('Invalid');
      expect(status.message).toContain('WatchList feature gate');
      const plain = await api.request(
        'GET',
        '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1',
      );
      expect(plain.status).toBe(200);
    } finally {
      await api.stop();
    }
  });

  it('on (the default): the same watch streams the initial events', async () => {
    const api = await startTestServer({ insecureHttp: true });
    try {
      const res = await api.request(
        'GET',
        '/api/v1/namespaces?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1',
      );
      expect(res.status).toBe(200);
      expect(res.text).toContain('"ADDED"');
      expect(res.text).toContain('initial-events-end');
    } finally {
      await api.stop();
    }
  });
});
