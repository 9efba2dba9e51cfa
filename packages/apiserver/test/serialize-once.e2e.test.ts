/**
 * Serialize once (issue 18 item 2): get and list answer with bytes kept per cached object revision
 * and media type (a list joins its items' bytes between a header and a footer). The answers must be
 * byte for byte what encoding the whole value gives (the path before the cache), for JSON, Protobuf
 * and CBOR, on a first read, repeated reads (a kept items section), after a change, for pages and
 * with a label selector.
 */
import { decodeCbor, encodeCbor } from '@orchard/codecs/cbor';
import { decodeProtobuf, encodeProtobuf } from '@orchard/codecs/protobuf';
import { type ApiObject, type Flavor, kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe.each([orchFlavor, kubernetesFlavor])(
  'serialize-once get and list ($name flavor)',
  (flavor: Flavor) => {
    let api: TestServer;
    const ns = 'serialize-once';
    const base = `/api/v1/namespaces/${ns}/configmaps`;
    const encodings: {
      name: string;
      accept: string;
      encode: (v: ApiObject) => Uint8Array;
      decode: (b: Uint8Array) => ApiObject;
    }[] = [
      {
        name: 'JSON',
        accept: 'application/json',
        encode: (v) => Buffer.from(JSON.stringify(v)),
        decode: (b) => JSON.parse(Buffer.from(b).toString()),
      },
      {
        name: 'Protobuf',
        accept: flavor.protobufMediaType,
        encode: (v) => encodeProtobuf(v, flavor),
        decode: (b) => decodeProtobuf(b, flavor),
      },
      {
        name: 'CBOR',
        accept: 'application/cbor',
        encode: (v) => encodeCbor(v),
        decode: (b) => decodeCbor(b) as ApiObject,
      },
    ];
    /** A list's continue token differs per request (signed, timestamped): the same state without it. */
    const withoutContinue = (b: Buffer) => {
      const v = JSON.parse(b.toString()) as ApiObject;
      if (v.metadata && 'continue' in v.metadata) v.metadata.continue = '';
      return JSON.stringify(v);
    };

    beforeAll(async () => {
      api = await startTestServer({
        flavor: flavor.name,
        server: { featureGates: { CBORServingAndStorage: true } },
      });
      expect(
        (await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status,
      ).toBe(201);
      // 40: more than the 32 items from which the server keeps a list's items section.
      for (let i = 0; i < 40; i++) {
        const r = await api.request('POST', base, {
          body: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: `cm-${i}`, labels: { parity: i % 2 ? 'odd' : 'even' } },
            data: {
              // The last one is over 16 KiB, so a joined list also holds an item passed through as
              // its own chunk, and the list spans several chunks.
              text: `ünïcødé ${'x'.repeat(i === 39 ? 20_000 : i * 13)} "quoted" \\ ${String.fromCodePoint(0x1f600)}`,
              n: String(i),
            },
          },
        });
        expect(r.status).toBe(201);
      }
    }, 120_000);
    afterAll(async () => {
      await api?.stop();
    });

    /**
     * The body in `accept` and the JSON form of the same state: JSON before and after it, retried
     * (at most 5 times) until nothing changed in between (controllers may write meanwhile).
     */
    async function readBoth(path: string, accept: string): Promise<{ body: Buffer; json: ApiObject }> {
      for (let attempt = 0; attempt < 5; attempt++) {
        const before = await api.raw('GET', path, { headers: { accept: 'application/json' } });
        const r = await api.raw('GET', path, { headers: { accept } });
        const after = await api.raw('GET', path, { headers: { accept: 'application/json' } });
        expect([before.status, r.status, after.status]).toEqual([200, 200, 200]);
        if (withoutContinue(before.body) === withoutContinue(after.body))
          return { body: r.body, json: JSON.parse(before.body.toString()) };
      }
      throw new Error(`${path} kept changing`);
    }

    async function expectParity(path: string): Promise<void> {
      for (const e of encodings) {
        // Three reads: a list's items section is kept on the second and reused on the third.
        for (let read = 0; read < 3; read++) {
          const { body, json } = await readBoth(path, e.accept);
          // A page's token is the one this answer carries (every request signs a fresh one).
          const token = (e.decode(body).metadata as { continue?: string } | undefined)?.continue;
          if (token !== undefined && json.metadata) json.metadata.continue = token;
          const expected = Buffer.from(e.encode(json));
          expect(body.equals(expected), `${e.name} ${path} read ${read + 1}`).toBe(true);
        }
      }
    }

    it('get: every encoding byte for byte, first and repeated reads', async () => {
      await expectParity(`${base}/cm-7`);
    });

    it('list: every encoding byte for byte (items joined between header and footer)', async () => {
      await expectParity(base);
    });

    it('list pages and label-selected lists: byte for byte', async () => {
      await expectParity(`${base}?limit=7`);
      await expectParity(`${base}?labelSelector=parity%3Dodd`);
    });

    it('after a change the new revision is served, byte for byte', async () => {
      const before = await api.raw('GET', `${base}/cm-3`, { headers: { accept: 'application/json' } });
      const r = await api.request('PUT', `${base}/cm-3`, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-3' }, data: { changed: 'yes' } },
      });
      expect(r.status).toBe(200);
      const after = await api.raw('GET', `${base}/cm-3`, { headers: { accept: 'application/json' } });
      expect(after.body.equals(before.body)).toBe(false);
      expect(JSON.parse(after.body.toString())).toMatchObject({ data: { changed: 'yes' } });
      await expectParity(`${base}/cm-3`);
      await expectParity(base);
      // Not a kept items section of before the change: every encoding's list holds the new cm-3.
      for (const e of encodings) {
        const list = e.decode(
          (await api.raw('GET', base, { headers: { accept: e.accept } })).body,
        ) as ApiObject & {
          items: { metadata: { name: string }; data?: Record<string, string> }[];
        };
        expect(list.items.find((i) => i.metadata.name === 'cm-3')?.data, e.name).toEqual({ changed: 'yes' });
      }
    });

    it('JSON watch events carry the object bytes get answers with, byte for byte', async () => {
      const before = await api.request('GET', base);
      const rv = (before.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
      const made = await api.request('POST', base, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched' }, data: { q: '"ü"' } },
      });
      expect(made.status).toBe(201);
      const w = await api.raw('GET', `${base}?watch=true&resourceVersion=${rv}&timeoutSeconds=1`, {
        headers: { accept: 'application/json' },
      });
      expect(w.status).toBe(200);
      const lines = w.body
        .toString()
        .split('\n')
        .filter((l) => l !== '');
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toBe(JSON.stringify(JSON.parse(line)));
      const added = lines.find((l) => JSON.parse(l).object?.metadata?.name === 'watched') ?? '';
      const got = await api.raw('GET', `${base}/watched`, { headers: { accept: 'application/json' } });
      expect(added).toBe(`{"type":"ADDED","object":${got.body.toString()}}`);
      // The create's own answer is the same bytes.
      expect(Buffer.from(made.bytes).equals(got.body)).toBe(true);
    });

    it('pretty=true still indents JSON (built per request)', async () => {
      const r = await api.raw('GET', `${base}/cm-1?pretty=true`, { headers: { accept: 'application/json' } });
      const text = r.body.toString();
      expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    });
  },
);
