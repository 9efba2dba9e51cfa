import { isApiError } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { parseRequestQuery } from './query.js';

const p = (s: string) => parseRequestQuery(new URLSearchParams(s));

describe('parseRequestQuery', () => {
  it('parses the parameters of spec doc 1 §4.4', () => {
    expect(
      p(
        'watch=1&resourceVersion=5&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&sendInitialEvents=true&timeoutSeconds=30',
      ),
    ).toMatchObject({
      watch: true,
      resourceVersion: '5',
      resourceVersionMatch: 'NotOlderThan',
      allowWatchBookmarks: true,
      sendInitialEvents: true,
      timeoutSeconds: 30,
    });
    expect(p('limit=500&continue=abc&labelSelector=a%3Db&fieldSelector=metadata.name%3Dx')).toMatchObject({
      limit: 500,
      continue: 'abc',
      labelSelector: 'a=b',
      fieldSelector: 'metadata.name=x',
    });
    expect(p('dryRun=All&fieldManager=kubectl&fieldValidation=Strict&force=true')).toMatchObject({
      dryRun: true,
      fieldManager: 'kubectl',
      fieldValidation: 'Strict',
      force: true,
    });
    expect(p('')).toMatchObject({
      watch: false,
      dryRun: false,
      resourceVersion: undefined,
      limit: undefined,
    });
    expect(p('resourceVersion=').resourceVersion).toBe('');
    expect(p('watch=true').watch).toBe(true);
  });

  it.each([
    'resourceVersionMatch=Sometimes',
    'dryRun=Yes',
    'fieldValidation=Loud',
    'limit=-1',
    'limit=ten',
    'timeoutSeconds=1.5',
    'watch=maybe',
    `fieldManager=${'x'.repeat(129)}`,
  ])('rejects %s with 400', (s) => {
    let err: unknown;
    try {
      p(s);
    } catch (e) {
      err = e;
    }
    expect(isApiError(err) && err.code).toBe(400);
  });
});
