import { describe, expect, it } from 'vitest';
import { constantTimeEqual } from './constant-time.js';
import { createTokenFileAuthenticator, parseTokenFile } from './token-file.js';

describe('static token file', () => {
  it('parses token,user,uid,"groups" with comments and blank lines', () => {
    const e = parseTokenFile('# comment\n\nt1,alice,u1,"a,b"\nt2,bob,,\n"t,3",carol,u3\n', 'f.csv');
    expect(e).toEqual([
      { token: 't1', user: { username: 'alice', uid: 'u1', groups: ['a', 'b'] } },
      { token: 't2', user: { username: 'bob', groups: [] } },
      { token: 't,3', user: { username: 'carol', uid: 'u3', groups: [] } },
    ]);
  });

  const bad: [string, string, RegExp][] = [
    ['too few fields', 'ok,a,1\nt1,alice\n', /^f\.csv:2: expected token,user,uid/],
    ['unterminated quote', 't1,alice,u1,"a,b\n', /^f\.csv:1: malformed CSV/],
    ['empty token', ',alice,u1\n', /^f\.csv:1: empty token/],
    ['empty user', 't1,,u1\n', /^f\.csv:1: empty user name/],
    ['duplicate token', 't1,a,1\n\nt1,b,2\n', /^f\.csv:3: duplicate token/],
    ['junk after a quoted field', '"t1"x,a,1\n', /^f\.csv:1: malformed CSV/],
  ];
  for (const [name, text, re] of bad) {
    it(`line-numbered error: ${name}`, () => {
      expect(() => parseTokenFile(text, 'f.csv')).toThrow(re);
    });
  }

  const a = createTokenFileAuthenticator(parseTokenFile('secret-token,alice,u1,"g"\n'));
  const rows: [string, string, string | undefined][] = [
    ['valid', 'secret-token', 'alice'],
    ['prefix', 'secret-toke', undefined],
    ['longer', 'secret-token1', undefined],
    ['wrong', 'x', undefined],
    ['hostile __proto__', '__proto__', undefined],
  ];
  for (const [name, token, user] of rows) {
    it(`token ${name}`, async () => {
      const r = await a.authenticateToken(token);
      expect(r.kind === 'user' ? r.user.username : undefined).toBe(user);
    });
  }

  it('constantTimeEqual', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'ab')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });
});
