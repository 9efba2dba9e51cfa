import * as http from 'node:http';
import { describe, expect, it } from 'vitest';
import { isClientError } from './errors.js';
import { createRestClient } from './rest-client.js';
import { decodeWatchEvents } from './watch-decoder.js';

/** What the client trusts from a server: Status bodies and watch events pass meta's zod schemas. */

/** The ClientError of one request to a server that answers `code` with `body`. */
async function errorOf(code: number, body: string) {
  const server = http.createServer((_req, res) => {
    res.writeHead(code, { 'Content-Type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const err = await createRestClient({ server: url })
      .json({ path: '/x' })
      .catch((e: unknown) => e);
    if (!isClientError(err, 'Status')) throw new Error('expected a ClientError');
    return err;
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 404 };

describe('Status error bodies', () => {
  it('trusts a Status, including a reason this client does not know', async () => {
    const err = await errorOf(404, JSON.stringify({ ...status, reason: 'SomethingNew', message: 'm' }));
    expect(err.body?.reason).toBe('SomethingNew');
    expect(err.message).toBe('m');
  });

  it.each([
    ['a string code', { ...status, code: '404', message: 'm' }],
    ['causes that are not a list', { ...status, message: 'm', details: { causes: { field: 'x' } } }],
    ['a numeric message', { ...status, message: 5 }],
  ])('does not trust a kind: Status body with %s: the raw text is the message', async (_what, body) => {
    const text = JSON.stringify(body);
    const err = await errorOf(404, text);
    expect(err.body).toBeUndefined();
    expect(err.message).toBe(text);
    expect(err.status).toBe(404);
  });

  it('a __proto__ key in a Status body neither becomes its prototype nor pollutes Object.prototype', async () => {
    const err = await errorOf(409, `{"kind":"Status","code":409,"message":"m","__proto__":{"polluted":1}}`);
    expect(err.body?.message).toBe('m');
    expect(Object.getPrototypeOf(err.body)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

async function* lines(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield new TextEncoder().encode(`${p}\n`);
}

async function decodeError(line: string): Promise<string> {
  try {
    for await (const _ of decodeWatchEvents(lines(line))) {
      // drain
    }
  } catch (e) {
    if (isClientError(e, 'Decode')) return e.message;
    throw e;
  }
  return 'accepted';
}

describe('watch events', () => {
  it.each([
    ['{"type":"FOO","object":{}}', 'not a watch event (type: '],
    ['{"type":"ADDED","object":null}', 'not a watch event (object: '],
    ['{"type":"ADDED"}', 'not a watch event (object: '],
    [
      '{"type":"ADDED","object":{"metadata":{"labels":{"a":1}}}}',
      'not a watch event (object.metadata.labels.a: ',
    ],
    ['{"type":"MODIFIED","object":{"metadata":{"resourceVersion":7}}}', '(object.metadata.resourceVersion: '],
    ['[1,2]', 'not a watch event ('],
  ])('%s → Decode naming the field', async (line, fragment) => {
    expect(await decodeError(line)).toContain(fragment);
  });

  it('passes every event type, an ERROR Status and unknown fields through unchanged', async () => {
    const events = [
      {
        type: 'ADDED',
        object: { kind: 'ConfigMap', metadata: { name: 'a', resourceVersion: '1' }, data: { x: 'y' } },
      },
      { type: 'BOOKMARK', object: { kind: 'ConfigMap', metadata: { resourceVersion: '2' } } },
      { type: 'ERROR', object: { ...status, code: 410, reason: 'Expired' } },
    ];
    const out: unknown[] = [];
    for await (const ev of decodeWatchEvents(lines(...events.map((e) => JSON.stringify(e))))) out.push(ev);
    expect(out).toEqual(events);
  });

  it('a deeply nested and a __proto__-keyed object decode without harm', async () => {
    const deep = `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`;
    const line = `{"type":"ADDED","object":{"metadata":{"name":"x"},"__proto__":{"polluted":1},"data":${deep}}}`;
    const out: unknown[] = [];
    for await (const ev of decodeWatchEvents(lines(line))) out.push(ev);
    expect(out).toHaveLength(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
