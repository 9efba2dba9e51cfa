import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startTestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { allBlocks, blockKind, type DocBlock, isNoRun, where } from './doc-blocks/blocks.js';
import { docCli } from './doc-blocks/cli-bundle.js';
import { openShSession } from './doc-blocks/sh-session.js';
import { type TsModule, tsModules, typecheck, writeModules } from './doc-blocks/ts-blocks.js';
import { runCollected } from './doc-blocks/vitest-shim.js';

/**
 * Every fenced code block of `docs/`, the top README and the package and example READMEs is
 * executed, so none can rot (issue 20 item 4). `ts` blocks are type-checked against the workspace
 * packages and run; `sh` blocks run with bash against a real server; `yaml`/`json` blocks are
 * parsed; `text` blocks are output and never run. A block that cannot run in a test says so in its
 * info string (```` ```sh no-run ````, with the reason in the text around it); any other block that
 * fails fails this test naming its `file:line`. How each kind runs: `doc-blocks/*.ts`.
 */
const root = join(import.meta.dirname, '..');
const blocks = allBlocks(root);
const kinds = new Map(blocks.map((b) => [b, blockKind(b)]));
const byKind = (k: string) => blocks.filter((b) => kinds.get(b) === k);
const tsBlocks = byKind('ts');
const shBlocks = byKind('sh');
const mods: TsModule[] = tsModules(root, tsBlocks);

describe('documentation code blocks', () => {
  it('have a language the test knows', () => {
    expect(blocks.length).toBeGreaterThan(50);
    expect(blocks.map((b) => kinds.get(b)).filter((k) => !['ts', 'sh', 'data', 'text'].includes(k!))).toEqual(
      [],
    );
  });

  it('yaml and json blocks parse', () => {
    const problems: string[] = [];
    for (const b of byKind('data').filter((x) => !isNoRun(x))) {
      if (b.lang === 'json') {
        try {
          JSON.parse(b.text);
        } catch (e) {
          problems.push(`${where(b)}: ${(e as Error).message}`);
        }
        continue;
      }
      for (const d of parseAllDocuments(b.text))
        for (const e of d.errors) problems.push(`${where(b)}: ${e.message}`);
    }
    expect(problems).toEqual([]);
  });

  describe('ts blocks', () => {
    let checked: string[] = [];
    beforeAll(() => {
      checked = typecheck(root, mods, (m) => !isNoRun(m.block));
    }, 240_000);

    it('type-check against the packages', () => {
      expect(tsBlocks.length).toBeGreaterThan(20);
      expect(checked).toEqual([]);
    });

    it('run', { timeout: 240_000 }, async () => {
      writeModules(root, mods);
      const failures: string[] = [];
      const times: string[] = [];
      const byFile = new Map<string, TsModule[]>();
      for (const m of mods.filter((x) => !isNoRun(x.block)))
        byFile.set(m.block.file, [...(byFile.get(m.block.file) ?? []), m]);
      const cwd = process.cwd();
      const env = process.env.KUBECONFIG;
      const g = globalThis as { __orchardDocBlock?: unknown };
      for (const [, fileMods] of byFile) {
        // The blocks of one file share a server and a directory, as a reader's session would.
        const api = await startTestServer({ flavor: 'kubernetes' });
        const dir = mkdtempSync(join(tmpdir(), 'orchard-doc-ts-'));
        g.__orchardDocBlock = { api, client: api.client };
        process.env.KUBECONFIG = api.kubeconfigPath;
        process.chdir(dir);
        try {
          for (const m of fileMods) {
            const started = performance.now();
            let timer: NodeJS.Timeout | undefined;
            try {
              const limit = new Promise<never>((_, reject) => {
                timer = setTimeout(() => reject(new Error('did not finish within 60 s')), 60_000);
              });
              await Promise.race([
                (async () => {
                  await import(pathToFileURL(m.file).href);
                  await runCollected();
                })(),
                limit,
              ]);
              times.push(`${where(m.block)} ${Math.round(performance.now() - started)} ms`);
            } catch (e) {
              failures.push(
                `${where(m.block)}: the ts block threw: ${e instanceof Error ? e.message : String(e)}`,
              );
            } finally {
              clearTimeout(timer);
            }
          }
        } finally {
          process.chdir(cwd);
          if (env === undefined) delete process.env.KUBECONFIG;
          else process.env.KUBECONFIG = env;
          await api.stop();
          rmSync(dir, { recursive: true, force: true });
        }
      }
      for (const m of mods) rmSync(m.file, { force: true });
      if (process.env.ORCHARD_DOC_TIMES) console.log(times.join('\n'));
      expect(failures).toEqual([]);
    });
  });

  describe('sh blocks', () => {
    let cli = '';
    beforeAll(async () => {
      cli = await docCli(root);
    }, 120_000);
    const files = [...new Set(shBlocks.filter((b) => !isNoRun(b)).map((b) => b.file))];
    // One session per markdown file, the files in parallel.
    it.concurrent.each(files)('%s', { timeout: 400_000 }, async (file) => {
      const dir = mkdtempSync(join(tmpdir(), 'orchard-doc-sh-'));
      const session = openShSession(dir, cli);
      try {
        const own = blocks.filter((x) => x.file === file);
        // Files a page shows (```yaml file=policy.yaml) exist before its commands run, wherever they are.
        for (const b of own)
          if (kinds.get(b) === 'data' && b.attrs.file) session.writeFile(b.attrs.file, b.text);
        for (const b of own) if (kinds.get(b) === 'sh' && !isNoRun(b)) await session.run(b, 240_000);
      } finally {
        await session.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  afterAll(() => {
    const count = (k: string, noRun: boolean) =>
      blocks.filter((b: DocBlock) => kinds.get(b) === k && isNoRun(b) === noRun).length;
    console.log(
      `doc blocks: ${blocks.length} in all; ts ${count('ts', false)} run + ${count('ts', true)} no-run (type-checked); ` +
        `sh ${count('sh', false)} run + ${count('sh', true)} no-run; yaml/json ${count('data', false) + count('data', true)} parsed; text ${count('text', false) + count('text', true)}`,
    );
  });
});
