import { describe, expect, it } from 'vitest';
import { isCodecError } from './codec.js';
import { jsonCodec } from './json.js';
import { parseAccept, parseMediaType } from './media-type.js';
import { codecForContentType, contentTypeOf, negotiate, type Offer } from './negotiate.js';
import { yamlCodec } from './yaml.js';

const json: Offer = { mediaType: 'application/json' };
const yaml: Offer = { mediaType: 'application/yaml' };
const table: Offer = { mediaType: 'application/json', target: { as: 'Table', g: 'meta.k8s.io', v: 'v1' } };
const disco: Offer = {
  mediaType: 'application/json',
  target: { as: 'APIGroupDiscoveryList', g: 'apidiscovery.k8s.io', v: 'v2' },
};

describe('parseMediaType', () => {
  it.each([
    ['application/json', { type: 'application', subtype: 'json', params: {} }],
    [
      'Application/JSON; Charset=utf-8',
      { type: 'application', subtype: 'json', params: { charset: 'utf-8' } },
    ],
    [
      'application/json;as=Table;v=v1;g=meta.k8s.io',
      { type: 'application', subtype: 'json', params: { as: 'Table', v: 'v1', g: 'meta.k8s.io' } },
    ],
    ['text/plain; x="a;b"', { type: 'text', subtype: 'plain', params: { x: 'a;b' } }],
  ])('%s', (input, expected) => {
    expect(parseMediaType(input)).toEqual(expected);
  });
  it.each(['json', '/json', 'application/', 'a/b;=x', 'a/b;q=2', 'a b/c'])('rejects %s', (input) => {
    expect(parseMediaType(input)).toBeUndefined();
  });
});

describe('parseAccept', () => {
  it('orders by quality then position, skipping malformed ranges', () => {
    const r = parseAccept('text/plain;q=0.5, bogus, application/yaml, application/json;q=0.9');
    expect(r.map((x) => `${x.type}/${x.subtype}`)).toEqual([
      'application/yaml',
      'application/json',
      'text/plain',
    ]);
  });
  it('treats a missing header as */*', () => {
    expect(parseAccept(undefined)).toEqual([{ type: '*', subtype: '*', params: {}, q: 1, index: 0 }]);
  });
});

describe('negotiate', () => {
  const cases: [string | undefined, Offer[], Offer | undefined][] = [
    [undefined, [json, yaml], json],
    ['*/*', [json, yaml], json],
    ['application/*', [json, yaml], json],
    ['application/yaml', [json, yaml], yaml],
    ['application/yaml;q=0.5, application/json', [json, yaml], json],
    ['text/html', [json, yaml], undefined],
    ['application/json;q=0', [json, yaml], undefined],
    ['application/json;q=0, */*', [json, yaml], yaml],
    // kubectl's human-output Accept: Table if offered, else plain JSON.
    [
      'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json',
      [json],
      json,
    ],
    ['application/json;as=Table;v=v1;g=meta.k8s.io,application/json', [table, json], table],
    ['application/json;as=Table;v=v1;g=meta.k8s.io', [json], undefined],
    // kubectl's discovery Accept.
    [
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json',
      [disco, json],
      disco,
    ],
    [
      'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json',
      [disco, json],
      json,
    ],
    ['application/json, */*', [json, yaml], json],
    ['application/vnd.kubernetes.protobuf,application/json', [json, yaml], json],
    ['application/json;charset=utf-8', [json], json],
  ];
  it.each(cases)('Accept %s', (accept, offers, expected) => {
    expect(negotiate(accept, offers)?.offer).toBe(expected);
  });
  it('accepts stream=watch only for watches', () => {
    expect(negotiate('application/json;stream=watch', [json])).toBeUndefined();
    expect(negotiate('application/json;stream=watch', [json], { streaming: true })?.offer).toBe(json);
  });
  it('formats the content type with the conversion parameters', () => {
    expect(contentTypeOf(disco)).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    expect(contentTypeOf(json)).toBe('application/json');
  });
});

describe('codecForContentType', () => {
  const codecs = [jsonCodec, yamlCodec];
  it.each([
    [undefined, jsonCodec],
    ['', jsonCodec],
    ['application/json', jsonCodec],
    ['application/json; charset=utf-8', jsonCodec],
    ['application/yaml', yamlCodec],
    ['text/yaml', yamlCodec],
  ])('%s', (ct, codec) => {
    expect(codecForContentType(ct, codecs)).toBe(codec);
  });
  it.each(['text/plain', 'application/vnd.kubernetes.protobuf', 'garbage'])(
    'rejects %s as Unsupported',
    (ct) => {
      let err: unknown;
      try {
        codecForContentType(ct, codecs);
      } catch (e) {
        err = e;
      }
      expect(isCodecError(err, 'Unsupported')).toBe(true);
    },
  );
});
