import { readFile } from 'node:fs/promises';
import type { ApiServer } from '@orchard/apiserver';
import type { RestClient } from '@orchard/client';
import { parseAllDocuments } from 'yaml';

/** Options of `loadFixtures`. */
export interface LoadFixturesOptions {
  /** The namespace of namespaced objects that name none. Default `default`. */
  readonly namespace?: string;
  /** The field manager of the server-side applies. Default `orchard-fixtures`. */
  readonly fieldManager?: string;
  /** How long to wait for a CRD a later document uses to serve. Default 10 000 ms. */
  readonly timeoutMs?: number;
}

/** What `loadFixtures` needs of a server: its admin client and the registry (for kinds). */
export interface FixtureTarget {
  readonly client: RestClient;
  readonly server: ApiServer;
}

type Obj = {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: { name?: unknown; namespace?: unknown };
  items?: unknown;
};

/**
 * Applies every object of one or more YAML files (multi-document, `---` separated; a `List` applies
 * its items) to the server in order, with server-side apply (created when missing, updated when
 * present, so loading twice is harmless). A CRD in the file serves before a later document uses its
 * kind. Fails naming the file, the document and the server's answer. Resolves to the applied
 * objects as the server returned them.
 */
export async function loadFixtures(
  api: FixtureTarget,
  files: string | readonly string[],
  options: LoadFixturesOptions = {},
): Promise<unknown[]> {
  const applied: unknown[] = [];
  for (const file of typeof files === 'string' ? [files] : files) {
    const text = await readFile(file, 'utf8');
    const docs = parseAllDocuments(text, { uniqueKeys: true });
    if (!Array.isArray(docs)) throw new Error(`${file}: not a YAML stream`);
    for (const [i, doc] of docs.entries()) {
      const where = `${file} document ${i + 1}`;
      if (doc.errors.length > 0) throw new Error(`${where}: ${doc.errors[0]!.message}`);
      const value = doc.toJS({ maxAliasCount: 100 }) as unknown;
      if (value === null || value === undefined) continue;
      if (typeof value !== 'object' || Array.isArray(value))
        throw new Error(`${where}: an object with apiVersion and kind was expected`);
      const obj = value as Obj;
      const items =
        typeof obj.kind === 'string' && obj.kind.endsWith('List') && Array.isArray(obj.items)
          ? obj.items
          : [obj];
      for (const [j, item] of items.entries())
        applied.push(
          await applyOne(api, item as Obj, items.length > 1 ? `${where} item ${j + 1}` : where, options),
        );
    }
  }
  return applied;
}

async function applyOne(
  api: FixtureTarget,
  obj: Obj,
  where: string,
  o: LoadFixturesOptions,
): Promise<unknown> {
  const { apiVersion, kind } = obj;
  const name = obj.metadata?.name;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || typeof name !== 'string' || name === '')
    throw new Error(`${where}: apiVersion, kind and metadata.name must be strings`);
  const slash = apiVersion.indexOf('/');
  const [group, version] =
    slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
  const deadline = performance.now() + (o.timeoutMs ?? 10_000); // not Date: a fake clock may stand still
  let def = api.server.registry.byKind(group, kind);
  // A CRD applied a moment ago serves once its controller has registered it.
  while (!def?.versions.includes(version) && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    def = api.server.registry.byKind(group, kind);
  }
  if (!def?.versions.includes(version))
    throw new Error(`${where}: the server does not serve kind ${kind} in ${apiVersion}`);
  const base = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  const ns =
    typeof obj.metadata?.namespace === 'string' ? obj.metadata.namespace : (o.namespace ?? 'default');
  const path = `${base}${def.namespaced ? `/namespaces/${encodeURIComponent(ns)}` : ''}/${def.resource}/${encodeURIComponent(name)}`;
  try {
    return await api.client.json({
      method: 'PATCH',
      path,
      query: { fieldManager: o.fieldManager ?? 'orchard-fixtures', force: 'true' },
      contentType: 'application/apply-patch+yaml',
      body: def.namespaced ? { ...obj, metadata: { ...obj.metadata, namespace: ns } } : obj,
    });
  } catch (e) {
    throw new Error(`${where}: ${kind} ${name}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
