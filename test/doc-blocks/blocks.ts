import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The fenced code blocks of the user guide (`docs/*.md`), the top README and every package's and
 * example's README, each with where it starts (`file:line`, the line of the opening fence) and its
 * info string split into a language and tags: ```` ```sh no-run ```` is language `sh`, tag `no-run`;
 * ```` ```yaml file=policy.yaml ```` has the attribute `file`.
 */
export interface DocBlock {
  /** Path from the repository root. */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  readonly tags: readonly string[];
  readonly attrs: Readonly<Record<string, string>>;
  readonly text: string;
}

/** `file:line` of a block, the name every failure carries. */
export const where = (b: DocBlock) => `${b.file}:${b.line}`;

/** The markdown files whose blocks are checked, from the repository root. */
export function docFiles(root: string): string[] {
  const out = ['README.md'];
  const isFile = (p: string) => {
    try {
      return statSync(join(root, p)).isFile();
    } catch {
      return false;
    }
  };
  const add = (dir: string, pick: (name: string) => string | undefined) => {
    for (const name of readdirSync(join(root, dir)).sort()) {
      const p = pick(name);
      if (p && isFile(join(dir, p))) out.push(join(dir, p));
    }
  };
  add('docs', (n) => (n.endsWith('.md') ? n : undefined));
  add('packages', (n) => join(n, 'README.md'));
  add('examples', (n) => (n.endsWith('.md') ? n : join(n, 'README.md')));
  return out.map((f) => relative(root, join(root, f)));
}

const fence = /^( *)(```+|~~~+)(.*)$/;

/** The fenced blocks of one markdown text (indented fences too; an unclosed fence is an error). */
export function extractBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const out: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = fence.exec(lines[i]!);
    if (!open) continue;
    const [, indent, marker, info] = open as unknown as [string, string, string, string];
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = fence.exec(lines[j]!);
      if (
        close &&
        close[2]!.startsWith(marker[0]!) &&
        close[2]!.length >= marker.length &&
        close[3]!.trim() === ''
      )
        break;
      body.push(lines[j]!.startsWith(indent) ? lines[j]!.slice(indent.length) : lines[j]!);
    }
    if (j === lines.length) throw new Error(`${file}:${i + 1}: code fence never closed`);
    const [lang = '', ...words] = info.trim().split(/\s+/).filter(Boolean);
    const attrs: Record<string, string> = {};
    const tags: string[] = [];
    for (const w of words) {
      const eq = w.indexOf('=');
      if (eq > 0) attrs[w.slice(0, eq)] = w.slice(eq + 1);
      else tags.push(w);
    }
    out.push({ file, line: i + 1, lang, tags, attrs, text: `${body.join('\n')}\n` });
    i = j;
  }
  return out;
}

/** Every block of every documentation file. */
export function allBlocks(root: string): DocBlock[] {
  return docFiles(root).flatMap((f) => extractBlocks(f, readFileSync(join(root, f), 'utf8')));
}

/**
 * What the test does with a block, by language:
 * - `ts`: type-checked against the workspace packages, then run (unless `no-run`);
 * - `sh`/`bash`: run with bash in a fresh directory against a server (unless `no-run`);
 * - `yaml`/`json`: parsed; with `file=NAME`, written into the directory of the file's shell blocks;
 * - `text`: output or a diagram, never run.
 * Any other language, or a block without one, fails: say what it is.
 */
export type BlockKind = 'ts' | 'sh' | 'data' | 'text';

/** The kind of a block, or an error message naming it. */
export function blockKind(b: DocBlock): BlockKind | string {
  switch (b.lang) {
    case 'ts':
    case 'typescript':
      return 'ts';
    case 'sh':
    case 'bash':
    case 'shell':
      return 'sh';
    case 'yaml':
    case 'yml':
    case 'json':
      return 'data';
    case 'text':
      return 'text';
    default:
      return `${where(b)}: a code block needs a language the doc test knows (ts, sh, yaml, json, text), not ${JSON.stringify(b.lang)}`;
  }
}

/** Whether the block is tagged as not runnable (still type-checked or parsed). */
export const isNoRun = (b: DocBlock) => b.tags.includes('no-run');
