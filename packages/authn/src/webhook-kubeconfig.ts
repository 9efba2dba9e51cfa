import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { getOwn } from '@orchard/meta/internal';
import { parse } from 'yaml';
import { invalidConfiguration } from './errors.js';

/** Where a webhook lives and how to reach it: the parts of a kubeconfig a webhook client uses. */
export interface WebhookConnection {
  /** The URL requests are POSTed to (the cluster's `server`, path included). */
  readonly server: string;
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
  readonly token?: string;
  readonly insecureSkipTlsVerify?: boolean;
  readonly serverName?: string;
}

function record(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

/**
 * Reads a webhook's kubeconfig (`--authentication-token-webhook-config-file`): the current context's
 * cluster and user, else the first of each, as upstream. Relative file paths resolve against the
 * file's directory. Errors name the file and the field.
 */
export function loadWebhookKubeconfig(path: string): WebhookConnection {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw invalidConfiguration(`${path}: cannot read: ${(e as Error).message}`);
  }
  return parseWebhookKubeconfig(text, path);
}

/**
 * Parses the text of a webhook kubeconfig as `loadWebhookKubeconfig` does, `path` naming the file in errors
 * and being the base of relative certificate paths (which are read from disk). Throws
 * `AuthnError('InvalidConfiguration')` naming the file and field for invalid YAML, a missing cluster or
 * server, or an unreadable referenced file.
 */
export function parseWebhookKubeconfig(text: string, path: string): WebhookConnection {
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 100 });
  } catch (e) {
    throw invalidConfiguration(`${path}: not valid YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  const root = record(doc);
  if (!root) throw invalidConfiguration(`${path}: not a kubeconfig`);
  const list = (field: string) => {
    const v = getOwn(root, field);
    if (v !== undefined && v !== null && !Array.isArray(v))
      throw invalidConfiguration(`${path}: ${field}: must be a list`);
    return (Array.isArray(v) ? v : []).map(record);
  };
  const clusters = list('clusters');
  const users = list('users');
  const contexts = list('contexts');
  const currentName = getOwn(root, 'current-context');
  const current = contexts.find((c) => c && getOwn(c, 'name') === currentName);
  const ctx = current ? record(getOwn(current, 'context')) : undefined;
  const pick = (items: (Record<string, unknown> | undefined)[], name: unknown) =>
    (name !== undefined ? items.find((i) => i && getOwn(i, 'name') === name) : undefined) ?? items[0];
  const clusterEntry = pick(clusters, ctx ? getOwn(ctx, 'cluster') : undefined);
  const userEntry = pick(users, ctx ? getOwn(ctx, 'user') : undefined);
  const cluster = clusterEntry ? record(getOwn(clusterEntry, 'cluster')) : undefined;
  const user = userEntry ? record(getOwn(userEntry, 'user')) : undefined;
  if (!cluster)
    throw invalidConfiguration(`${path}: clusters: Required value: a cluster with a server is needed`);
  const server = getOwn(cluster, 'server');
  if (typeof server !== 'string' || server === '')
    throw invalidConfiguration(`${path}: clusters[].cluster.server: Required value`);
  try {
    const u = new URL(server);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('scheme');
  } catch {
    throw invalidConfiguration(
      `${path}: clusters[].cluster.server: Invalid value: ${JSON.stringify(server)}: must be an http(s) URL`,
    );
  }
  const base = dirname(path);
  const inline = (
    obj: Record<string, unknown> | undefined,
    dataField: string,
    fileField: string,
    where: string,
  ) => {
    if (!obj) return undefined;
    const data = getOwn(obj, dataField);
    if (typeof data === 'string' && data !== '') return Buffer.from(data, 'base64').toString('utf8');
    const file = getOwn(obj, fileField);
    if (typeof file !== 'string' || file === '') return undefined;
    const p = isAbsolute(file) ? file : join(base, file);
    try {
      return readFileSync(p, 'utf8');
    } catch (e) {
      throw invalidConfiguration(`${path}: ${where}.${fileField}: cannot read ${p}: ${(e as Error).message}`);
    }
  };
  const ca = inline(cluster, 'certificate-authority-data', 'certificate-authority', 'clusters[].cluster');
  const cert = inline(user, 'client-certificate-data', 'client-certificate', 'users[].user');
  const key = inline(user, 'client-key-data', 'client-key', 'users[].user');
  let token = user ? getOwn(user, 'token') : undefined;
  if (typeof token !== 'string' || token === '') {
    const tf = user ? getOwn(user, 'tokenFile') : undefined;
    token =
      typeof tf === 'string' && tf !== '' ? inline(user, '', 'tokenFile', 'users[].user')?.trim() : undefined;
  }
  const serverName = getOwn(cluster, 'tls-server-name');
  return {
    server,
    ...(ca !== undefined ? { ca } : {}),
    ...(cert !== undefined ? { cert } : {}),
    ...(key !== undefined ? { key } : {}),
    ...(typeof token === 'string' && token !== '' ? { token } : {}),
    ...(getOwn(cluster, 'insecure-skip-tls-verify') === true ? { insecureSkipTlsVerify: true } : {}),
    ...(typeof serverName === 'string' && serverName !== '' ? { serverName } : {}),
  };
}
