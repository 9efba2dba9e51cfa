/**
 * The Kubernetes URLs library: `isURL(string)`, `url(string)` and the getters `getScheme`,
 * `getHost`, `getHostname`, `getPort`, `getEscapedPath`, `getQuery`. Parsing follows Go's
 * `url.ParseRequestURI` (what upstream uses): an absolute URL or an absolute path, no fragment
 * splitting, control characters rejected, percent-escapes validated.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { evalError } from './values.js';

/** A parsed URL (the CEL type `kubernetes.URL`). */
export class CelURL {
  constructor(
    readonly scheme: string,
    readonly opaque: string,
    readonly host: string,
    readonly path: string,
    readonly rawPath: string,
    readonly rawQuery: string,
  ) {}
}

function urlUnescape(s: string, mode: 'path' | 'host' | 'query'): string {
  if (!s.includes('%') && !(mode === 'query' && s.includes('+'))) return s;
  const bytes: number[] = [];
  const enc = new TextEncoder();
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === '%') {
      const h = s.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(h)) throw new Error(`invalid URL escape "${s.slice(i, i + 3)}"`);
      bytes.push(Number.parseInt(h, 16));
      i += 2;
    } else if (c === '+' && mode === 'query') bytes.push(0x20);
    else bytes.push(...enc.encode(c));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

const unreservedPath = /[A-Za-z0-9\-_.~$&+,/:;=@!'()*]/;

function escapePath(p: string): string {
  let out = '';
  for (const b of new TextEncoder().encode(p)) {
    const c = String.fromCharCode(b);
    out += b < 0x80 && unreservedPath.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function validHost(host: string): boolean {
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close < 0) return false;
    const port = host.slice(close + 1);
    return port === '' || /^:\d*$/.test(port);
  }
  const colon = host.lastIndexOf(':');
  if (colon >= 0 && !/^\d*$/.test(host.slice(colon + 1))) return false;
  return !/[\s<>"`{}|\\^]/.test(host);
}

/** Parses like Go `url.ParseRequestURI`; throws on an invalid URL. */
export function parseRequestURI(raw: string): CelURL {
  if (raw === '') throw new Error('empty url');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is rejected
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new Error('invalid control character in URL');
  let rest = raw;
  let scheme = '';
  const sm = /^([a-zA-Z][a-zA-Z0-9+\-.]*):/.exec(rest);
  if (sm) {
    scheme = (sm[1] as string).toLowerCase();
    rest = rest.slice(sm[0].length);
  } else if (
    /^[0-9+\-.]*:/.test(rest) &&
    rest.indexOf(':') < (rest.indexOf('/') < 0 ? rest.length : rest.indexOf('/'))
  ) {
    throw new Error('missing protocol scheme');
  }
  let rawQuery = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (!rest.startsWith('/')) {
    if (scheme !== '') return new CelURL(scheme, rest, '', '', '', rawQuery);
    throw new Error('invalid URI for request');
  }
  let host = '';
  if (scheme !== '' && rest.startsWith('//')) {
    const authEnd = rest.indexOf('/', 2);
    let authority = authEnd < 0 ? rest.slice(2) : rest.slice(2, authEnd);
    rest = authEnd < 0 ? '' : rest.slice(authEnd);
    const at = authority.lastIndexOf('@');
    if (at >= 0) authority = authority.slice(at + 1);
    if (!validHost(authority)) throw new Error(`invalid host "${authority}"`);
    host = urlUnescape(authority, 'host');
  }
  const path = urlUnescape(rest, 'path');
  return new CelURL(scheme, '', host, path, rest, rawQuery);
}

function hostname(u: CelURL): string {
  const h = u.host;
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']'));
  const colon = h.lastIndexOf(':');
  return colon >= 0 ? h.slice(0, colon) : h;
}

function port(u: CelURL): string {
  const h = u.host;
  const start = h.startsWith('[') ? h.indexOf(']') + 1 : 0;
  const colon = h.indexOf(':', start);
  return colon >= 0 ? h.slice(colon + 1) : '';
}

function escapedPath(u: CelURL): string {
  if (u.rawPath !== '') {
    try {
      if (urlUnescape(u.rawPath, 'path') === u.path && !/[^A-Za-z0-9\-_.~$&+,/:;=@!'()*%]/.test(u.rawPath))
        return u.rawPath;
    } catch {
      /* fall through to escaping */
    }
  }
  return escapePath(u.path);
}

function query(u: CelURL): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of u.rawQuery.split('&')) {
    if (part === '' || part.includes(';')) continue;
    const eq = part.indexOf('=');
    let k: string;
    let v: string;
    try {
      k = urlUnescape(eq < 0 ? part : part.slice(0, eq), 'query');
      v = eq < 0 ? '' : urlUnescape(part.slice(eq + 1), 'query');
    } catch {
      continue;
    }
    const list = out.get(k);
    if (list) list.push(v);
    else out.set(k, [v]);
  }
  return out;
}

export function registerUrls(env: Environment): void {
  env.registerType('kubernetes.URL', CelURL);
  env.registerFunction('url(string): kubernetes.URL', (s: string) => {
    try {
      return parseRequestURI(s);
    } catch (e) {
      throw evalError(
        `URL parse error during conversion from string: ${(e as Error).message}`,
        'invalid_argument',
      );
    }
  });
  env.registerFunction('isURL(string): bool', (s: string) => {
    try {
      parseRequestURI(s);
      return true;
    } catch {
      return false;
    }
  });
  env.registerFunction('kubernetes.URL.getScheme(): string', (u: CelURL) => u.scheme);
  env.registerFunction('kubernetes.URL.getHost(): string', (u: CelURL) => u.host);
  env.registerFunction('kubernetes.URL.getHostname(): string', (u: CelURL) => hostname(u));
  env.registerFunction('kubernetes.URL.getPort(): string', (u: CelURL) => port(u));
  env.registerFunction('kubernetes.URL.getEscapedPath(): string', (u: CelURL) => escapedPath(u));
  env.registerFunction('kubernetes.URL.getQuery(): map<string, list<string>>', (u: CelURL) => query(u));
}
