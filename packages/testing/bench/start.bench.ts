/**
 * `pnpm bench testing`: how long `startTestServer()` takes (issue 20 item 3: first start under
 * 50 ms, warm start under 5 ms). "First" is the first start in a fresh process (it generates the CA
 * and certificates, and runs the server's code for the first time): measured in `firstRuns` fresh
 * child processes each. "Warm" is every later start in one process (the certificates are shared):
 * first `rounds` starts each followed by 5 creates, `reset()` and `stop()`, as a test file's tests
 * would, then `rounds` more with only `stop()` between. The first loop is the warm-up a test file's
 * first tests see: V8 still interprets, then tiers up, the code a start runs once (the second start
 * of a process takes ~2.5× a steady one). The second loop runs on code the first warmed: the steady
 * state. Each mode in a child process of its own, so HTTP's rounds do not run on code HTTPS's rounds
 * already warmed. Also `reset()` after the writes. Wall time and the process's CPU time; min /
 * median / max over the rounds. Module loading is not counted (it happens once per process, before
 * the clock starts).
 *
 * Each figure comes twice: run from source through tsx (as the monorepo's own tests run), and
 * built as the published packages are (esbuild, which tsup uses: this file and the workspace
 * packages in one ESM bundle without `keepNames`, dependencies imported from where they are installed). tsx compiles with `keepNames`, which wraps every function expression in a call that
 * redefines its `name`: each closure then costs ~1 µs and ~250 B more (a start makes ~370), which
 * users of the npm packages never pay. `BENCH_BUILT=0` skips the built run.
 *
 * Node parses its ~140 bundled root certificates (30–40 ms here) when the process makes its first TLS
 * context, given a CA or not, whoever makes it (the test server, or the test client of an HTTP
 * server), unless `NODE_EXTRA_CA_CERTS` is set: then Node does it (and parses that file too) at
 * process start, before the clock. So where the variable is set, the HTTPS first start is
 * also measured in processes without it, the figure a machine without the variable sees.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuUsage } from 'node:process';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../src/index.js';
import { externalDependencies } from './external-dependencies.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 30);
/** Set in the bundled copy of this file (see the module comment). */
const built = process.env.ORCHARD_BENCH_BUILT === '1';
const form = built ? 'built' : 'source';
/** This file as run: the bundle needs no loader, the source needs tsx. */
const self = built ? [process.argv[1]!] : ['--import', 'tsx', fileURLToPath(import.meta.url)];
// Nine: a first start moves by ~10 ms with where young-generation collections land, and three made
// the median move as much between runs of the same code.
const firstRuns = Number(process.env.BENCH_FIRST_RUNS ?? 9);
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

const firstOnly = process.env.ORCHARD_BENCH_FIRST;
if (firstOnly !== undefined) {
  // A child: one first start, its figures on stdout.
  const [api, wall, cpu] = await timed(() => startTestServer({ insecureHttp: firstOnly === 'http' }));
  await api.stop();
  console.log(JSON.stringify({ wall: [wall], cpu: [cpu] }));
  process.exit(0);
}

const warmOnly = process.env.ORCHARD_BENCH_WARM;
if (warmOnly !== undefined) {
  // A child: one (uncounted) first start, then `rounds` warm starts each followed by a few writes
  // and `reset()`, as a test file's tests would, then `rounds` with only `stop()` between (on code
  // the first loop warmed: the steady state); the figures on stdout.
  const insecureHttp = warmOnly === 'http';
  await (await startTestServer({ insecureHttp })).stop();
  /** `rounds` warm starts, each followed by `between` and `stop()`: wall and CPU of each start. */
  const warmStarts = async (between: (api: TestServer) => Promise<void>) => {
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const [api, w, c] = await timed(() => startTestServer({ insecureHttp }));
      wall.push(w);
      cpu.push(c);
      await between(api);
      await api.stop();
    }
    return { wall, cpu };
  };
  const reset: number[] = [];
  const { wall, cpu } = await warmStarts(async (api) => {
    for (let j = 0; j < 5; j++)
      await api.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: { metadata: { name: `c${j}` } },
      });
    reset.push((await timed(() => api.reset()))[1]);
  });
  const bare = await warmStarts(async () => {});
  console.log(JSON.stringify({ wall, cpu, reset, bareWall: bare.wall, bareCpu: bare.cpu }));
  process.exit(0);
}

/** Long enough for any child (a warm one does `rounds` starts, each with a few requests). */
const childTimeoutMs = 60_000 + rounds * 1000;

/** Runs this file as a child with `env` and returns the figures it prints. */
function child(env: Record<string, string>): {
  wall: number[];
  cpu: number[];
  reset?: number[];
  bareWall?: number[];
  bareCpu?: number[];
} {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  // An empty value here means: not set in the child.
  for (const [k, v] of Object.entries(env)) if (v === '') delete childEnv[k];
  // A child takes a few seconds. About one Node 20 process in a few hundred started with
  // `--import tsx` never gets past loading its modules (idle, deadlocked with the loader-hooks
  // thread); such a child is killed after `childTimeoutMs` and run once more.
  for (let attempt = 1; ; attempt++) {
    const r = spawnSync(process.execPath, self, { env: childEnv, encoding: 'utf8', timeout: childTimeoutMs });
    if (r.status === 0) return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '');
    if (r.error && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT' && attempt === 1) {
      console.error(`bench child gave no answer in ${childTimeoutMs / 1000} s: running it again`);
      continue;
    }
    throw new Error(`bench child failed (${r.status ?? r.signal}): ${r.stderr}`);
  }
}

/** The first start of `firstRuns` fresh processes (each loads the modules, then starts one server). */
function firstStarts(
  mode: 'https' | 'http',
  env: Record<string, string> = {},
): { wall: number[]; cpu: number[] } {
  const runs = Array.from({ length: firstRuns }, () => child({ ORCHARD_BENCH_FIRST: mode, ...env }));
  return { wall: runs.flatMap((r) => r.wall), cpu: runs.flatMap((r) => r.cpu) };
}

for (const mode of ['https', 'http'] as const) {
  const first = firstStarts(mode);
  // Each mode's warm starts in a process of their own: the same compiler state for both.
  const { wall, cpu, reset = [], bareWall = [], bareCpu = [] } = child({ ORCHARD_BENCH_WARM: mode });
  const label = `${mode.padEnd(5)} [${form}]`;
  console.log(
    `${label} first start (${firstRuns} processes): wall ${stats(first.wall)}; CPU ${stats(first.cpu)}`,
  );
  if (mode === 'https' && process.env.NODE_EXTRA_CA_CERTS) {
    const bare = firstStarts(mode, { NODE_EXTRA_CA_CERTS: '' });
    console.log(
      `${label} first start, NODE_EXTRA_CA_CERTS unset (Node's root store built in the window) (${firstRuns} processes): wall ${stats(bare.wall)}; CPU ${stats(bare.cpu)}`,
    );
  }
  console.log(
    `${label} warm start, the process's starts 2–${rounds + 1}, 5 creates and reset() between: wall ${stats(wall)}; CPU ${stats(cpu)}`,
  );
  console.log(
    `${label} warm start, steady (starts ${rounds + 2}–${2 * rounds + 1}), only stop() between: wall ${stats(bareWall)}; CPU ${stats(bareCpu)}`,
  );
  console.log(`${label} reset after 5 creates (${rounds}): wall ${stats(reset)}`);
}

if (!built && process.env.BENCH_BUILT !== '0') {
  // The same bench, bundled as tsup builds the packages, run without tsx.
  const { build } = await import('esbuild');
  const dir = mkdtempSync(join(tmpdir(), 'orchard-start-bench-'));
  const outfile = join(dir, 'start.bench.mjs');
  try {
    await build({
      entryPoints: [fileURLToPath(import.meta.url)],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
      plugins: [externalDependencies],
    });
    const r = spawnSync(process.execPath, [outfile], {
      env: { ...process.env, ORCHARD_BENCH_BUILT: '1' },
      stdio: 'inherit',
      timeout: 600_000,
    });
    if (r.status !== 0) throw new Error(`built bench failed (${r.status ?? r.signal})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
