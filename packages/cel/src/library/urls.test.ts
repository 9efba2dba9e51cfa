import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { isCelError } from '../errors.js';
import { thrownBy } from '../test-helpers.js';

const env = createEnv();
const run = (expr: string) => compile(expr, env).evaluate();

// The examples of the upstream URLs library documentation.
describe('URLs library', () => {
  it.each([
    ["url('https://example.com:80/').getHost()", 'example.com:80'],
    ["url('https://example.com/').getHost()", 'example.com'],
    ["url('https://[::1]:80/').getHost()", '[::1]:80'],
    ["url('https://[::1]/').getHost()", '[::1]'],
    ["url('/path').getHost()", ''],
    ["url('https://example.com:80/').getHostname()", 'example.com'],
    ["url('https://127.0.0.1:80/').getHostname()", '127.0.0.1'],
    ["url('https://[::1]:80/').getHostname()", '::1'],
    ["url('/path').getHostname()", ''],
    ["url('https://example.com:80/').getPort()", '80'],
    ["url('https://example.com/').getPort()", ''],
    ["url('/path').getPort()", ''],
    ["url('https://example.com/path').getScheme()", 'https'],
    ["url('/path').getScheme()", ''],
    ["url('https://example.com/path').getEscapedPath()", '/path'],
    ["url('https://example.com/path with spaces/').getEscapedPath()", '/path%20with%20spaces/'],
    ["url('https://example.com/').getEscapedPath()", '/'],
    ["url('https://example.com').getEscapedPath()", ''],
    ["url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}", true],
    [
      "url('https://example.com/path?key with spaces=value with spaces').getQuery() == {'key with spaces': ['value with spaces']}",
      true,
    ],
    ["url('https://example.com/path?').getQuery() == {}", true],
    ["url('https://example.com/path').getQuery() == {}", true],
    ["isURL('https://example.com:80/path?query=val#fragment')", true],
    ["isURL('/path')", true],
    ["isURL('not a url')", false],
    ["isURL('')", false],
    ["isURL('https://exa mple.com/')", false],
    ["isURL('https://example.com/%zz')", false],
  ])('%s → %j', (expr, want) => {
    expect(run(expr)).toEqual(want);
  });

  it("url('not a url') is an evaluation error", () => {
    const err = thrownBy(() => run("url('not a url')"));
    expect(isCelError(err) && err.code).toBe('evaluation');
    expect((err as Error).message).toMatch(/URL parse error/);
  });
});
