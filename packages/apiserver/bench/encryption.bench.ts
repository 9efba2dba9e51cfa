/**
 * Secret creates through the reference server (in-process, plain HTTP, memory store, undici pool of
 * 16 connections), with `--encryption-provider-config` aesgcm for secrets against no encryption in
 * the same run, so the figure is a ratio. Run: `pnpm bench apiserver`.
 */
import { performance } from 'node:perf_hooks';
import { orchFlavor } from '@orchard/meta';
import { createResourceTransformers, parseEncryptionConfiguration } from '@orchard/store-encryption';
import { startTestServer } from '@orchard/testing';
import { Pool } from 'undici';

const total = Number(process.env.BENCH_REQUESTS ?? 4000);
const connections = 16;
const data = { password: Buffer.from('x'.repeat(700)).toString('base64') };

const aesgcm = createResourceTransformers(
  parseEncryptionConfiguration(
    `apiVersion: apiserver.config.orch.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - aesgcm: {keys: [{name: key1, secret: ${Buffer.alloc(32, 7).toString('base64')}}]}
`,
    { flavor: orchFlavor },
  ),
);

async function creates(encrypted: boolean, run: string): Promise<number> {
  const api = await startTestServer({
    insecureHttp: true,
    server: { ...(encrypted ? { encryption: aesgcm } : {}), logger: { info: () => {}, error: () => {} } },
  });
  const pool = new Pool(api.url, { connections, pipelining: 1 });
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (let i = next++; i < total; i = next++) {
        const r = await pool.request({
          method: 'POST',
          path: '/api/v1/namespaces/default/secrets',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ metadata: { name: `s-${run}-${i}` }, data }),
        });
        await r.body.dump();
        if (r.statusCode !== 201) throw new Error(`create answered ${r.statusCode}`);
      }
    }),
  );
  const perSecond = total / ((performance.now() - start) / 1000);
  await pool.close();
  await api.stop();
  return perSecond;
}

await creates(false, 'warm');
await creates(true, 'warm');
// Interleaved, best of three each: the machine's load moves between runs, not within one.
let plain = 0;
let enc = 0;
for (let r = 0; r < 3; r++) {
  plain = Math.max(plain, await creates(false, `a${r}`));
  enc = Math.max(enc, await creates(true, `b${r}`));
}
console.log(
  `Secret creates through the server (${total} per run, best of 3 interleaved runs, ${connections} connections, memory store):\n`,
);
console.log('| secrets stored | creates/s | ratio |');
console.log('| --- | --- | --- |');
console.log(`| as written (no config) | ${Math.round(plain)} | 1.00× |`);
console.log(`| aesgcm | ${Math.round(enc)} | ${(enc / plain).toFixed(2)}× |`);
