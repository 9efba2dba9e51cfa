import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { connectTestServer } from '@orchard/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { type DocBlock, extractBlocks } from './doc-blocks/blocks.js';
import { docCli } from './doc-blocks/cli-bundle.js';
import { openShSession } from './doc-blocks/sh-session.js';
import { blockDir, tsModules, typecheck } from './doc-blocks/ts-blocks.js';

/**
 * The README's quick start and then `docs/getting-started.md`, in order, as a new user would
 * (issue 20, "a test walks the guide"): the README's server line, the guide's server and kubectl
 * steps, then the guide's TypeScript client against that server through `$KUBECONFIG`. Under
 * `--flavor kubernetes` exactly as written (stock kubectl); under `--flavor orch` the same server
 * lines with the flavor switched and the kubectl steps done through `@orchard/client` (stock kubectl
 * runs only against the kubernetes flavor). The steps are read from the markdown, so editing the
 * guide changes what this test does.
 */
const root = join(import.meta.dirname, '..');
const blocksOf = (file: string) => extractBlocks(file, readFileSync(join(root, file), 'utf8'));
const quickStart = blocksOf('README.md').find(
  (b) => b.lang === 'sh' && b.text.includes('orchard-apiserver'),
)!;
const guide = blocksOf('docs/getting-started.md');
const guideShell = guide.find((b) => b.lang === 'sh' && b.text.includes('orchard-apiserver'))!;
const guideClient = guide.find((b) => b.lang === 'ts' && b.text.includes('loadKubeconfig'))!;

// $KUBECONFIG is the process's: one client step at a time (the flavors run one after the other:
// run side by side under load, one of them lost its connection now and then).
let envLock: Promise<unknown> = Promise.resolve();
function withKubeconfig<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const run = envLock.then(async () => {
    const env = process.env.KUBECONFIG;
    process.env.KUBECONFIG = path;
    try {
      return await fn();
    } finally {
      if (env === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = env;
    }
  });
  envLock = run.catch(() => undefined);
  return run;
}

const step = (from: DocBlock, text: string): DocBlock => ({ ...from, text: `${text}\n` });
const withFlavor = (line: string, flavor: string) => line.replace(/--flavor \S+/, `--flavor ${flavor}`);

describe.each(['kubernetes', 'orch'] as const)('the guide under --flavor %s', (flavor) => {
  let cli = '';
  beforeAll(async () => {
    cli = await docCli(root);
  }, 120_000);

  it('README quick start, then getting-started step by step', { timeout: 400_000 }, async () => {
    expect(quickStart, 'README.md has a quick-start sh block starting the server').toBeDefined();
    expect(guideShell, 'getting-started.md has a sh block starting the server').toBeDefined();
    expect(guideClient, 'getting-started.md has the client example').toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), `orchard-guide-${flavor}-`));
    const session = openShSession(dir, cli);
    try {
      // README: the first line starts the server (the install before `&&` is done in a checkout;
      // the second line, the whole test suite, is what CI runs).
      const serverLine = quickStart.text.split('\n').find((l) => l.includes('orchard-apiserver'))!;
      expect(serverLine).toContain('--flavor kubernetes');
      await session.run(step(quickStart, withFlavor(serverLine, flavor)), 240_000);
      // The guide: its own server start (durable, in .orchard/), then its steps.
      const lines = guideShell.text.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
      if (flavor === 'kubernetes') await session.run(guideShell, 240_000);
      else
        await session.run(
          step(
            guideShell,
            lines
              .filter((l) => !/^kubectl\b/.test(l))
              .map((l) => withFlavor(l, flavor))
              .join('\n'),
          ),
          240_000,
        );
      const kubeconfig = join(dir, '.orchard', 'admin.kubeconfig');
      const { client } = connectTestServer({ url: '', kubeconfigPath: kubeconfig, flavor });
      if (flavor === 'orch') {
        // kubectl create ns demo; kubectl -n demo create configmap c --from-literal=a=b
        expect(lines.filter((l) => /^kubectl\b/.test(l))).toEqual([
          'kubectl create ns demo',
          'kubectl -n demo create configmap c --from-literal=a=b',
          'kubectl -n demo get cm c -o yaml',
        ]);
        await client.json({
          method: 'POST',
          path: '/api/v1/namespaces',
          body: { metadata: { name: 'demo' } },
        });
        await client.json({
          method: 'POST',
          path: '/api/v1/namespaces/demo/configmaps',
          body: { metadata: { name: 'c' }, data: { a: 'b' } },
        });
      }
      const cm = await client.json<{ data: Record<string, string> }>({
        method: 'GET',
        path: '/api/v1/namespaces/demo/configmaps/c',
      });
      expect(cm.data).toEqual({ a: 'b' });
      const discovery = await client.json<{ groups: { name: string }[] }>({ method: 'GET', path: '/apis' });
      expect(discovery.groups.map((g) => g.name)).toContain(
        flavor === 'kubernetes' ? 'apiextensions.k8s.io' : 'apiextensions.orch.io',
      );

      // The guide's TypeScript client, against this server through $KUBECONFIG.
      const [mod] = tsModules(root, [guideClient]);
      expect(typecheck(root, [mod!], () => true)).toEqual([]);
      const file = join(blockDir(root), 'walk', `${flavor}-${process.pid}.ts`);
      mkdirSync(join(blockDir(root), 'walk'), { recursive: true });
      writeFileSync(file, mod!.text);
      try {
        await withKubeconfig(kubeconfig, () => import(pathToFileURL(file).href));
      } finally {
        rmSync(file, { force: true });
      }
      const made = await client.json<{ data: Record<string, string> }>({
        method: 'GET',
        path: '/api/v1/namespaces/default/configmaps/c',
      });
      expect(made.data).toEqual({ a: 'b' });
    } finally {
      await session.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
