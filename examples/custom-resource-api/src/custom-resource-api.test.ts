import { describe, expect, it } from 'vitest';
import { run } from './main.js';

describe.each(['kubernetes', 'orch'] as const)('examples/custom-resource-api (%s flavor)', (flavor) => {
  it('registers the CRD and serves create, validation, Table, merge patch and server-side apply', async () => {
    const r = await run(flavor);
    expect(r.established).toBe(true);
    expect(r.created.spec).toEqual({ color: 'red', replicas: 1, maxReplicas: 10 });
    expect(r.celRejection.code).toBe(422);
    expect(r.celRejection.message).toContain('replicas must not exceed maxReplicas');
    expect(r.enumRejection.code).toBe(422);
    expect(r.enumRejection.message).toContain('Unsupported value: "pink"');
    expect(r.table.columns).toEqual(['Name', 'Color', 'Replicas']);
    expect(r.table.rows).toEqual([['w1', 'red', 1]]);
    expect(r.patched.spec.replicas).toBe(3);
    expect(r.applyConflict.code).toBe(409);
    expect(r.applyConflict.message).toBe('Apply failed with 1 conflict: conflict with "ci": .spec.color');
    expect(r.forced.spec).toMatchObject({ color: 'blue', labels: ['a', 'b'] });
    expect(r.managers).toEqual(['ci:Apply', 'ops:Apply']);
  });
});
