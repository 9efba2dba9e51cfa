import { createHash } from 'node:crypto';
import type { UserInfo } from '@orchard/meta';
import {
  type AuthenticationResult,
  noOpinion,
  type TokenAuthenticator,
  userResult,
} from './authenticator.js';
import { constantTimeEqual } from './constant-time.js';
import { invalidConfiguration } from './errors.js';

const digest = (token: string) => createHash('sha256').update(token).digest('base64');

/** One line of a `--token-auth-file`. */
export interface StaticTokenEntry {
  readonly token: string;
  readonly user: UserInfo;
}

/** Splits one CSV line into fields (RFC 4180 quoting); undefined on an unterminated quote. */
function splitCsvLine(line: string): string[] | undefined {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (line[i] === '"') {
      i++;
      for (;;) {
        if (i >= line.length) return undefined;
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += line[i++];
      }
      if (i < line.length && line[i] !== ',') return undefined;
    } else {
      const end = line.indexOf(',', i);
      field = end < 0 ? line.slice(i) : line.slice(i, end);
      i = end < 0 ? line.length : end;
    }
    out.push(field);
    if (i >= line.length) return out;
    i++; // the comma
  }
}

/**
 * Parses a static token file: CSV `token,user,uid[,"group1,group2"]`, blank lines and `#` comments
 * skipped. Errors name the file and line (a start-up error); a duplicate token is an error too.
 */
export function parseTokenFile(text: string, fileName = 'token file'): StaticTokenEntry[] {
  const entries: StaticTokenEntry[] = [];
  const seen = new Set<string>();
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const n = i + 1;
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const fields = splitCsvLine(line);
    if (fields === undefined)
      throw invalidConfiguration(`${fileName}:${n}: malformed CSV (unterminated quote)`);
    if (fields.length < 3)
      throw invalidConfiguration(
        `${fileName}:${n}: expected token,user,uid[,groups]; got ${fields.length} field(s)`,
      );
    const [token, username, uid, groups] = fields.map((f) => f.trim()) as [
      string,
      string,
      string,
      string | undefined,
    ];
    if (token === '') throw invalidConfiguration(`${fileName}:${n}: empty token`);
    if (/\s/.test(token)) throw invalidConfiguration(`${fileName}:${n}: token contains whitespace`);
    if (username === '') throw invalidConfiguration(`${fileName}:${n}: empty user name`);
    if (seen.has(token)) throw invalidConfiguration(`${fileName}:${n}: duplicate token`);
    seen.add(token);
    const groupList = groups
      ? groups
          .split(',')
          .map((g) => g.trim())
          .filter((g) => g !== '')
      : [];
    entries.push({
      token,
      user: uid === '' ? { username, groups: groupList } : { username, uid, groups: groupList },
    });
  }
  return entries;
}

/**
 * Static tokens (`--token-auth-file`). Every entry is compared in constant time on every request, so
 * the response time says nothing about which prefix matched. An unknown token is "no opinion" here;
 * the bearer wrapper turns an unclaimed token into a 401.
 */
export function createTokenFileAuthenticator(entries: readonly StaticTokenEntry[]): TokenAuthenticator {
  // Indexed by SHA-256 of the token: one lookup instead of comparing against every line (a 1,000-line
  // file cost ~0.5 ms per request). The digest of a guess says nothing about a stored token's prefix,
  // and the one candidate is still compared in constant time. The first line of a repeated token wins.
  const byDigest = new Map<string, StaticTokenEntry>();
  for (const e of entries) {
    const d = digest(e.token);
    if (!byDigest.has(d)) byDigest.set(d, e);
  }
  return {
    async authenticateToken(token): Promise<AuthenticationResult> {
      const found = byDigest.get(digest(token));
      return found && constantTimeEqual(found.token, token) ? userResult(found.user) : noOpinion;
    },
  };
}
