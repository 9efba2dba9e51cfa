import { describe, expect, it } from 'vitest';
import { demo, startApp } from './main.js';

describe('examples/embed-handler', () => {
  it('serves the app route and the API below /k8s, behind the app token', async () => {
    const r = await demo();
    expect(r.hello).toBe('hello from the app\n');
    expect(r.unauthorizedStatus).toBe(401);
    expect(r.configMapNames).toEqual(['settings']);
    expect(r.note).toMatchObject({
      kind: 'Note',
      metadata: { name: 'first', namespace: 'default' },
      text: 'hi',
    });
  });

  it('answers discovery and Status errors below the prefix, and 404 for other app paths', async () => {
    const app = await startApp({ token: 't' });
    try {
      const auth = { authorization: 'Bearer t' };
      const groups = (await (await fetch(`${app.apiUrl}/apis`, { headers: auth })).json()) as {
        groups: { name: string }[];
      };
      expect(groups.groups.map((g) => g.name)).toContain('example.com');
      const missing = await fetch(`${app.apiUrl}/api/v1/namespaces/default/configmaps/nope`, {
        headers: auth,
      });
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ kind: 'Status', reason: 'NotFound' });
      expect((await fetch(`${app.url}/elsewhere`)).status).toBe(404);
    } finally {
      await app.close();
    }
  });
});
