/**
 * The cases of the `json-patch-test-suite` npm package, with each patch's RAW JSON text as well as
 * its parsed form: one case ("duplicate ops") has an operation with two `op` members, which
 * `JSON.parse` silently merges, so only the raw text can show the patch is invalid.
 * Test-only (reads files with Node APIs), so it lives outside `src/`: `@orchard/patch/testing`
 * is a workspace-only export and is not published.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** One case of the json-patch-tests suite: document, patch and the expected result or error. */
export interface JsonPatchSuiteCase {
  /** `tests.json#12 comment` */
  id: string;
  comment?: string;
  doc: unknown;
  patch: unknown;
  /** The patch exactly as written in the suite file. */
  patchText: string;
  expected?: unknown;
  error?: string;
  disabled?: boolean;
}

const require = createRequire(import.meta.url);

/** Raw text of member `name` of each element of the top-level array in `text`. */
function rawMembers(text: string, name: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let i = 0;
  const n = text.length;
  const skipString = (j: number): number => {
    for (j++; j < n; j++) {
      if (text[j] === '\\') j++;
      else if (text[j] === '"') return j;
    }
    return j;
  };
  const skipValue = (j: number): number => {
    let d = 0;
    for (; j < n; j++) {
      const c = text[j];
      if (c === '"') j = skipString(j);
      else if (c === '{' || c === '[') d++;
      else if (c === '}' || c === ']') {
        if (d === 0) return j;
        d--;
        if (d === 0) return j + 1;
      } else if (c === ',' && d === 0) return j;
    }
    return j;
  };
  for (; i < n; i++) {
    const c = text[i];
    if (c === '"') {
      const end = skipString(i);
      if (depth === 2 && text.slice(i + 1, end) === name) {
        let j = end + 1;
        while (text[j] !== ':') j++;
        j++;
        while (/\s/.test(text[j]!)) j++;
        const stop = skipValue(j);
        out.push(text.slice(j, stop).trim());
        i = stop - 1;
        continue;
      }
      i = end;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return out;
}

/** Every case of the suite (tests.json, then spec_tests.json), disabled ones included. */
export function jsonPatchSuiteCases(): JsonPatchSuiteCase[] {
  const out: JsonPatchSuiteCase[] = [];
  for (const file of ['tests.json', 'spec_tests.json']) {
    const path = require.resolve(`json-patch-test-suite/${file}`);
    const text = readFileSync(path, 'utf8');
    const parsed = JSON.parse(text) as Omit<JsonPatchSuiteCase, 'id' | 'patchText'>[];
    const raws = rawMembers(text, 'patch');
    if (raws.length !== parsed.length)
      throw new Error(
        `json-patch-test-suite ${file}: found ${raws.length} patches for ${parsed.length} cases`,
      );
    parsed.forEach((c, i) => {
      out.push({ ...c, id: `${file}#${i}${c.comment ? ` ${c.comment}` : ''}`, patchText: raws[i]! });
    });
  }
  return out;
}
