/**
 * `pnpm bench testing`: how long `startTestServer()` takes (issue 20 item 3: first start under
 * 50 ms, warm start under 5 ms). "First" is the first start in a fresh process (it generates the CA
 * and certificates); "warm" is every later start in the same process (the certificates are shared),
 * with `stop()` in between. Also `reset()` after a few writes. Wall time and the process's CPU time;
 * min / median / max over the rounds. Module loading is not counted (it happens once per process).
 */
import { cpuUsage } from 'node:process';
import { startTestServer } from '../src/index.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 30);
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const f = (x: number) => x.toFixed(1);
  return `min ${f(s[0]!)}  median ${f(s[Math.floor(s.length / 2)]!)}  max ${f(s.at(-1)!)} ms`;
};
const timed = async <T>(fn: () => Promise<T>): Promise<[T, number, number]> => {
  const c0 = cpuUsage();
  const t0 = performance.now();
  const v = await fn();
  const wall = performance.now() - t0;
  const c = cpuUsage(c0);
  return [v, wall, (c.user + c.system) / 1000];
};

for (const insecureHttp of [false, true]) {
  // Only the very first start of the process pays for the certificates.
  const [first, firstWall, firstCpu] = await timed(() => startTestServer({ insecureHttp }));
  await first.stop();
  const wall: number[] = [];
  const cpu: number[] = [];
  const reset: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const [api, w, c] = await timed(() => startTestServer({ insecureHttp }));
    wall.push(w);
    cpu.push(c);
    for (let j = 0; j < 5; j++)
      await api.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: { metadata: { name: `c${j}` } },
      });
    reset.push((await timed(() => api.reset()))[1]);
    await api.stop();
  }
  const mode = insecureHttp ? 'http ' : 'https';
  console.log(`${mode} first start: ${firstWall.toFixed(1)} ms wall, ${firstCpu.toFixed(1)} ms CPU`);
  console.log(`${mode} warm start (${rounds}): wall ${stats(wall)}; CPU ${stats(cpu)}`);
  console.log(`${mode} reset after 5 creates (${rounds}): wall ${stats(reset)}`);
}
