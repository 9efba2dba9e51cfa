import { describe, expect, it } from 'vitest';
import { WritePipeline, type WriteRequest, type WriteStep } from './write-pipeline.js';
import { defaultWriteSteps } from './write-steps.js';

const step = (
  name: string,
  log: string[],
  operations: WriteStep['operations'] = ['create', 'update', 'patch'],
): WriteStep => ({
  name,
  operations,
  run: () => {
    log.push(name);
  },
});

describe('WritePipeline', () => {
  it('runs named steps in order, for their operations only', async () => {
    const log: string[] = [];
    const p = new WritePipeline([step('a', log), step('b', log, ['update']), step('c', log)]);
    await p.run({ operation: 'create' } as WriteRequest);
    expect(log).toEqual(['a', 'c']);
  });

  it('inserts, replaces, appends and removes steps by name', async () => {
    const log: string[] = [];
    const p = new WritePipeline([step('a', log), step('c', log)]);
    p.insertBefore('c', step('b', log))
      .insertAfter('c', step('d', log))
      .append(step('e', log))
      .replace('a', step('A', log))
      .remove('d');
    expect(p.names()).toEqual(['A', 'b', 'c', 'e']);
    await p.run({ operation: 'patch' } as WriteRequest);
    expect(log).toEqual(['A', 'b', 'c', 'e']);
    expect(() => p.insertBefore('nope', step('x', log))).toThrow(/no write step named "nope"/);
  });

  it('keeps the documented order of the foundation steps (other steps may sit between them)', () => {
    const names = new WritePipeline(defaultWriteSteps).names();
    const core = [
      'type-meta',
      'patch',
      'object-meta',
      'namespace-lifecycle',
      'strategy-prepare',
      'validation',
    ];
    const positions = core.map((n) => names.indexOf(n));
    expect(positions.every((i) => i >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });
});
