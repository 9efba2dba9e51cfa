import { request as httpsRequest } from 'node:https';
import type { RawResponse, TestServer } from '@orchard/testing';
import fc from 'fast-check';
import { expect } from 'vitest';

/** What the wire-encoding suites share: media types, raw byte requests, corruption fuzzing, raw watches. */

/** The Protobuf media type. */
export const PB = 'application/vnd.kubernetes.protobuf';
/** A Table of meta.k8s.io/v1, as kubectl asks for it. */
export const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

/** One request with a byte body and a byte response (the shared helper of @orchard/testing). */
export function raw(
  api: TestServer,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: Uint8Array,
): Promise<RawResponse> {
  return api.raw(method, path, { headers, ...(body ? { body } : {}) });
}

/**
 * POSTs 60 one-byte corruptions or truncations of `good` (fast-check) as `contentType`: each is
 * answered 400, or — when the corruption still decodes — 201, 422 or 409; `check` sees each answer.
 */
export async function fuzzCorruptions(
  api: TestServer,
  good: Uint8Array,
  path: string,
  contentType: string,
  check: (r: RawResponse, cut: boolean) => void,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      fc.nat({ max: good.length - 1 }),
      fc.integer({ min: 0, max: 255 }),
      fc.boolean(),
      async (at, byte, cut) => {
        const body = cut ? good.subarray(0, at) : Uint8Array.from(good, (b, i) => (i === at ? byte : b));
        const r = await raw(api, 'POST', path, { 'content-type': contentType }, body);
        // A corruption can still leave a valid (different) ConfigMap, or an invalid one (422).
        expect([400, 201, 422, 409]).toContain(r.status);
        check(r, cut);
      },
    ),
    { numRuns: 60 },
  );
}

/** Opens a watch and collects raw chunks until `done` says enough or the time budget ends. */
export function watchRaw(
  api: TestServer,
  path: string,
  accept: string,
  onChunk: (c: Buffer) => boolean,
): Promise<{ status: number; contentType: string | undefined }> {
  return new Promise((resolve, reject) => {
    const tls = api.tls;
    if (!tls) throw new Error('HTTPS only');
    const req = httpsRequest(
      new URL(path, api.url),
      { headers: { accept }, ca: tls.ca.cert, cert: tls.admin.cert, key: tls.admin.key },
      (res) => {
        const finish = () =>
          resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'] });
        res.on('data', (c: Buffer) => {
          if (onChunk(c)) {
            finish();
            req.destroy();
          }
        });
        res.on('end', finish);
      },
    );
    req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
    req.setTimeout(20_000, () => {
      req.destroy();
      reject(new Error('watch timed out'));
    });
    req.end();
  });
}
