import { describe, expect, it } from 'vitest';
import { JsonPathError, parseJsonPath } from './jsonpath.js';

const obj = {
  metadata: { name: 'a', labels: { 'app.kubernetes.io/name': 'web', tier: 'fe' } },
  spec: {
    replicas: 3,
    containers: [
      { name: 'c1', image: 'nginx' },
      { name: 'c2', image: 'redis' },
    ],
  },
  status: {
    conditions: [
      { type: 'Available', status: 'True', count: 1 },
      { type: 'Ready', status: 'False', count: 5 },
    ],
  },
};

describe('JSONPath (printer-column subset)', () => {
  it.each<[string, unknown[]]>([
    ['.spec.replicas', [3]],
    ['{.spec.replicas}', [3]],
    ['$.spec.replicas', [3]],
    ['.spec.missing', []],
    ['.missing.deeper', []],
    ['.spec.containers[0].image', ['nginx']],
    ['.spec.containers[-1].name', ['c2']],
    ['.spec.containers[*].image', ['nginx', 'redis']],
    ['.spec.containers[0:1].name', ['c1']],
    ['.spec.containers[0,1].name', ['c1', 'c2']],
    ['.status.conditions[?(@.type=="Ready")].status', ['False']],
    ["\t.status.conditions[?(@.type=='Available')].status".trim(), ['True']],
    ['.status.conditions[?(@.count > 2)].type', ['Ready']],
    ['.status.conditions[?(@.type != "Ready")].type', ['Available']],
    ['.status.conditions[?(@.missing)].type', []],
    [".metadata.labels['app.kubernetes.io/name']", ['web']],
    ['.metadata.labels.tier', ['fe']],
    ['..image', ['nginx', 'redis']],
    ['.spec.containers[*].*', ['nginx', 'c1', 'redis', 'c2']],
    ['.', [obj]],
  ])('%s', (path, expected) => {
    expect(parseJsonPath(path).evaluate(obj)).toEqual(expected);
  });

  it.each(['.spec[', '.spec[?(@.a==)]', '.spec..', '.spec.[0', 'spec'])('rejects %s', (path) => {
    expect(() => parseJsonPath(path)).toThrow(JsonPathError);
  });
});
