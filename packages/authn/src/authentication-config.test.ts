import { kubernetesFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { parseAuthenticationConfiguration } from './authentication-config.js';
import { isAuthnError } from './errors.js';

const head = 'apiVersion: apiserver.config.orch.io/v1beta1\nkind: AuthenticationConfiguration\n';
const jwt = (body: string) => `${head}jwt:\n- ${body.trim().split('\n').join('\n  ')}\n`;
const issuer = `issuer:
  url: https://issuer.test
  audiences: [orchard]`;
const username = `claimMappings:
  username:
    claim: sub
    prefix: ""`;

function errorOf(text: string, opts: Parameters<typeof parseAuthenticationConfiguration>[1] = {}): string {
  try {
    parseAuthenticationConfiguration(text, { file: 'authn.yaml', ...opts });
  } catch (e) {
    expect(isAuthnError(e, 'InvalidConfiguration')).toBe(true);
    return (e as Error).message;
  }
  throw new Error('expected an error');
}

describe('AuthenticationConfiguration: valid files', () => {
  it('parses a full jwt authenticator and compiles each expression once', () => {
    const c = parseAuthenticationConfiguration(
      jwt(`
issuer:
  url: https://issuer.test
  discoveryURL: https://discovery.test/.well-known/openid-configuration
  audiences: [a, b]
  audienceMatchPolicy: MatchAny
claimValidationRules:
- claim: hd
  requiredValue: example.com
- expression: claims.exp - claims.nbf <= 86400
  message: total token lifetime must not exceed 24 hours
claimMappings:
  username:
    expression: claims.given + ":" + claims.family
  groups:
    claim: groups
    prefix: "oidc:"
  uid:
    claim: sub
  extra:
  - key: example.com/tenant
    valueExpression: claims.tenant
userValidationRules:
- expression: "!user.username.startsWith('system:')"
  message: username cannot use reserved system- prefix
`),
    );
    expect(c.jwt).toHaveLength(1);
    const j = c.jwt[0]!;
    expect(j.issuer.audiences).toEqual(['a', 'b']);
    expect(j.claimValidationRules.map((r) => r.kind)).toEqual(['claim', 'expression']);
    expect(j.username.kind).toBe('expression');
    expect(j.groups).toEqual({ kind: 'claim', claim: 'groups', prefix: 'oidc:' });
    expect(j.extra.map((e) => e.key)).toEqual(['example.com/tenant']);
    expect(j.userValidationRules).toHaveLength(1);
  });

  it('accepts v1alpha1, JSON, no jwt at all, and the anonymous section', () => {
    const c = parseAuthenticationConfiguration(
      JSON.stringify({
        apiVersion: 'apiserver.config.orch.io/v1alpha1',
        kind: 'AuthenticationConfiguration',
        anonymous: { enabled: true, conditions: [{ path: '/livez' }, { path: '/readyz' }] },
      }),
    );
    expect(c.jwt).toEqual([]);
    expect(c.anonymous).toEqual({ enabled: true, conditions: [{ path: '/livez' }, { path: '/readyz' }] });
  });

  it('uses the flavor group', () => {
    const text = head.replace('orch.io', 'k8s.io');
    expect(parseAuthenticationConfiguration(text, { flavor: kubernetesFlavor }).jwt).toEqual([]);
    expect(errorOf(text)).toContain(
      'apiVersion: Unsupported value: "apiserver.config.k8s.io/v1beta1": supported values: "apiserver.config.orch.io/v1beta1", "apiserver.config.orch.io/v1alpha1"',
    );
  });
});

describe('AuthenticationConfiguration: every rule of doc 2 §2.5 names the file and field', () => {
  const rows: [string, string, string][] = [
    [
      'wrong kind',
      'apiVersion: apiserver.config.orch.io/v1beta1\nkind: Other\n',
      'kind: Unsupported value: "Other"',
    ],
    ['unknown field', `${head}jwtt: []\n`, 'jwtt: unknown field'],
    ['unknown nested field', jwt(`${issuer}\n  foo: 1\n${username}`), 'jwt[0].issuer.foo: unknown field'],
    [
      'wrong type',
      jwt(`issuer:\n  url: 5\n  audiences: [a]\n${username}`),
      'jwt[0].issuer.url: Invalid value: 5',
    ],
    [
      'issuer url required',
      jwt(`issuer:\n  audiences: [a]\n${username}`),
      'jwt[0].issuer.url: Required value',
    ],
    [
      'issuer url https only',
      jwt(`issuer:\n  url: http://issuer.test\n  audiences: [a]\n${username}`),
      'jwt[0].issuer.url: Invalid value: "http://issuer.test": URL scheme must be https',
    ],
    [
      'issuer url without query',
      jwt(`issuer:\n  url: https://issuer.test?x=1\n  audiences: [a]\n${username}`),
      'URL must not contain a query',
    ],
    [
      'issuer url without user',
      jwt(`issuer:\n  url: https://u:p@issuer.test\n  audiences: [a]\n${username}`),
      'URL must not contain a username or password',
    ],
    [
      'issuer url without fragment',
      jwt(`issuer:\n  url: https://issuer.test#x\n  audiences: [a]\n${username}`),
      'URL must not contain a fragment',
    ],
    [
      'discoveryURL differs from url',
      jwt(
        `issuer:\n  url: https://issuer.test\n  discoveryURL: https://issuer.test/\n  audiences: [a]\n${username}`,
      ),
      'jwt[0].issuer.discoveryURL: Invalid value: "https://issuer.test/": discoveryURL must be different from URL',
    ],
    [
      'audiences required',
      jwt(`issuer:\n  url: https://issuer.test\n${username}`),
      'jwt[0].issuer.audiences: Required value',
    ],
    [
      'audience duplicate',
      jwt(
        `issuer:\n  url: https://issuer.test\n  audiences: [a, a]\n  audienceMatchPolicy: MatchAny\n${username}`,
      ),
      'jwt[0].issuer.audiences[1]: Duplicate value: "a"',
    ],
    [
      'several audiences need MatchAny',
      jwt(`issuer:\n  url: https://issuer.test\n  audiences: [a, b]\n${username}`),
      'jwt[0].issuer.audienceMatchPolicy: Invalid value: "": audienceMatchPolicy must be MatchAny for multiple audiences',
    ],
    [
      'one audience: empty or MatchAny',
      jwt(
        `issuer:\n  url: https://issuer.test\n  audiences: [a]\n  audienceMatchPolicy: MatchAll\n${username}`,
      ),
      'audienceMatchPolicy must be empty or MatchAny for single audience',
    ],
    [
      'certificateAuthority must be PEM certificates',
      jwt(`issuer:\n  url: https://issuer.test\n  audiences: [a]\n  certificateAuthority: nope\n${username}`),
      'jwt[0].issuer.certificateAuthority: Invalid value: "<omitted>"',
    ],
    [
      'claim rule: claim and expression',
      jwt(`${issuer}\nclaimValidationRules:\n- claim: a\n  expression: "true"\n${username}`),
      'jwt[0].claimValidationRules[0]: Invalid value: "a": claim and expression can\'t both be set',
    ],
    [
      'claim rule: neither',
      jwt(`${issuer}\nclaimValidationRules:\n- message: x\n${username}`),
      'jwt[0].claimValidationRules[0]: Required value: claim or expression is required',
    ],
    [
      'claim rule: message with claim',
      jwt(`${issuer}\nclaimValidationRules:\n- claim: a\n  requiredValue: b\n  message: m\n${username}`),
      'jwt[0].claimValidationRules[0].message: Invalid value: "m": may not be specified when claim is set',
    ],
    [
      'claim rule: requiredValue with expression',
      jwt(`${issuer}\nclaimValidationRules:\n- expression: "true"\n  requiredValue: b\n${username}`),
      'jwt[0].claimValidationRules[0].requiredValue: Invalid value: "b": may not be specified when expression is set',
    ],
    [
      'claim rule: duplicate claim',
      jwt(`${issuer}\nclaimValidationRules:\n- claim: a\n- claim: a\n${username}`),
      'jwt[0].claimValidationRules[1].claim: Duplicate value: "a"',
    ],
    [
      'claim rule: expression does not compile',
      jwt(`${issuer}\nclaimValidationRules:\n- expression: "claims.a +"\n${username}`),
      'jwt[0].claimValidationRules[0].expression: Invalid value: "claims.a +": compilation failed',
    ],
    [
      'claim rule: expression must be boolean',
      jwt(`${issuer}\nclaimValidationRules:\n- expression: "1 + 1"\n${username}`),
      'expression must evaluate to bool',
    ],
    [
      'username required',
      jwt(`${issuer}\nclaimMappings: {}`),
      'jwt[0].claimMappings.username: Required value: claim or expression is required',
    ],
    [
      'username claim needs prefix',
      jwt(`${issuer}\nclaimMappings:\n  username:\n    claim: sub`),
      'jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing',
    ],
    [
      'username prefix with expression',
      jwt(`${issuer}\nclaimMappings:\n  username:\n    expression: claims.sub\n    prefix: x`),
      'jwt[0].claimMappings.username.prefix: Invalid value: "x": may not be specified when expression is set',
    ],
    [
      'username claim and expression',
      jwt(`${issuer}\nclaimMappings:\n  username:\n    claim: sub\n    expression: claims.sub`),
      'jwt[0].claimMappings.username: Invalid value: "": claim and expression can\'t both be set',
    ],
    [
      'email needs email_verified',
      jwt(`${issuer}\nclaimMappings:\n  username:\n    expression: claims.email`),
      'jwt[0].claimMappings.username.expression: Invalid value: "claims.email": claims.email_verified must be used',
    ],
    [
      'groups claim needs prefix',
      jwt(`${issuer}\nclaimMappings:\n  username:\n    claim: sub\n    prefix: ""\n  groups:\n    claim: g`),
      'jwt[0].claimMappings.groups.prefix: Required value',
    ],
    [
      'uid claim and expression',
      jwt(
        `${issuer}\nclaimMappings:\n  username:\n    claim: sub\n    prefix: ""\n  uid:\n    claim: sub\n    expression: claims.sub`,
      ),
      'jwt[0].claimMappings.uid: Invalid value: "": claim and expression can\'t both be set',
    ],
    [
      'extra key must be domain-prefixed',
      jwt(`${issuer}\n${username}\n  extra:\n  - key: tenant\n    valueExpression: claims.t`),
      'jwt[0].claimMappings.extra[0].key: Invalid value: "tenant": must be a domain-prefixed path',
    ],
    [
      'extra key lower-case',
      jwt(`${issuer}\n${username}\n  extra:\n  - key: example.com/Tenant\n    valueExpression: claims.t`),
      'jwt[0].claimMappings.extra[0].key: Invalid value: "example.com/Tenant": must be lowercase',
    ],
    [
      'extra key reserved',
      jwt(
        `${issuer}\n${username}\n  extra:\n  - key: authentication.k8s.io/x\n    valueExpression: claims.t`,
      ),
      'and their subdomains are reserved',
    ],
    [
      'extra key duplicate',
      jwt(
        `${issuer}\n${username}\n  extra:\n  - key: example.com/t\n    valueExpression: claims.t\n  - key: example.com/t\n    valueExpression: claims.u`,
      ),
      'jwt[0].claimMappings.extra[1].key: Duplicate value: "example.com/t"',
    ],
    [
      'extra valueExpression required',
      jwt(`${issuer}\n${username}\n  extra:\n  - key: example.com/t`),
      'jwt[0].claimMappings.extra[0].valueExpression: Required value',
    ],
    [
      'user rule expression required',
      jwt(`${issuer}\n${username}\nuserValidationRules:\n- message: m`),
      'jwt[0].userValidationRules[0].expression: Required value',
    ],
    [
      'user rule sees user, not claims',
      jwt(`${issuer}\n${username}\nuserValidationRules:\n- expression: "claims.sub == 'x'"`),
      'jwt[0].userValidationRules[0].expression: Invalid value: "claims.sub == \'x\'": compilation failed',
    ],
    [
      'anonymous conditions need enabled',
      `${head}anonymous:\n  enabled: false\n  conditions:\n  - path: /livez\n`,
      'anonymous.conditions: Invalid value',
    ],
    [
      'anonymous duplicate path',
      `${head}anonymous:\n  enabled: true\n  conditions:\n  - path: /livez\n  - path: /livez\n`,
      'anonymous.conditions[1].path: Duplicate value: "/livez"',
    ],
    ['not YAML', 'a: [', 'authn.yaml:1:'],
    ['not an object', '- 1\n', 'not an AuthenticationConfiguration object'],
  ];
  for (const [name, text, message] of rows) {
    it(name, () => {
      const m = errorOf(text);
      expect(m.startsWith('authn.yaml')).toBe(true);
      expect(m).toContain(message);
    });
  }

  it('duplicate issuers and discovery URLs across authenticators', () => {
    const one = `- issuer:\n    url: https://issuer.test\n    discoveryURL: https://d.test/x\n    audiences: [a]\n  claimMappings:\n    username:\n      claim: sub\n      prefix: ""\n`;
    const m = errorOf(`${head}jwt:\n${one}${one}`);
    expect(m).toContain('jwt[1].issuer.url: Duplicate value: "https://issuer.test"');
    expect(m).toContain('jwt[1].issuer.discoveryURL: Duplicate value: "https://d.test/x"');
  });

  it('an issuer may not be the service-account issuer', () => {
    expect(errorOf(jwt(`${issuer}\n${username}`), { disallowedIssuers: ['https://issuer.test'] })).toContain(
      'jwt[0].issuer.url: Invalid value: "https://issuer.test": URL must not overlap with disallowed issuers',
    );
  });

  it('at most 64 authenticators', () => {
    const many = Array.from(
      { length: 65 },
      (_, i) =>
        `- issuer:\n    url: https://i${i}.test\n    audiences: [a]\n  claimMappings:\n    username:\n      claim: sub\n      prefix: ""\n`,
    ).join('');
    expect(errorOf(`${head}jwt:\n${many}`)).toContain('jwt: Too many: 65: must have at most 64 items');
  });

  it('anonymous is forbidden when its gate is off', () => {
    expect(errorOf(`${head}anonymous:\n  enabled: true\n`, { anonymousConfigurable: false })).toContain(
      'anonymous: Forbidden',
    );
  });

  it('every error of a file is reported at once', () => {
    const m = errorOf(jwt(`issuer:\n  url: http://x\n${username}\nuserValidationRules:\n- message: m`));
    expect(m).toContain('URL scheme must be https');
    expect(m).toContain('jwt[0].issuer.audiences: Required value');
    expect(m).toContain('jwt[0].userValidationRules[0].expression: Required value');
  });
});

describe('AuthenticationConfiguration: hostile files', () => {
  it('__proto__ and constructor keys are unknown fields, and nothing is polluted', () => {
    const m = errorOf(`${head}__proto__:\n  polluted: true\nconstructor: 1\n`);
    expect(m).toContain('__proto__: unknown field');
    expect(m).toContain('constructor: unknown field');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a JSON __proto__ inside a jwt entry', () => {
    const text = JSON.stringify({
      apiVersion: 'apiserver.config.orch.io/v1beta1',
      kind: 'AuthenticationConfiguration',
    }).replace(
      /}$/,
      ',"jwt":[{"__proto__":{"x":1},"issuer":{"url":"https://i.test","audiences":["a"]},"claimMappings":{"username":{"claim":"sub","prefix":""}}}]}',
    );
    expect(errorOf(text)).toContain('jwt[0].__proto__: unknown field');
  });

  it('deep nesting, alias bombs and huge files are refused with a message', () => {
    const deep = `${head}anonymous: ${'['.repeat(5000)}${']'.repeat(5000)}\n`;
    expect(errorOf(deep)).toMatch(/^authn\.yaml/);
    const bomb = `${head}a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n`;
    expect(errorOf(bomb)).toMatch(/^authn\.yaml/);
    expect(errorOf(`${head}#${'x'.repeat(2 << 20)}\n`)).toContain('larger than');
  });
});
