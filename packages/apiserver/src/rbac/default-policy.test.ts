import { kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { aggregatedRules, type ClusterRole, sameRules } from '@orchard/rbac';
import { describe, expect, it } from 'vitest';
import { createApiServer } from '../server.js';
import { rbacGroup } from './rbac-resources.js';

describe.each([orchFlavor, kubernetesFlavor])('default RBAC policy at start ($domain)', (flavor) => {
  it('creates every aggregated ClusterRole with the rules aggregation settles on', async () => {
    const server = createApiServer({ flavor });
    try {
      await server.ready;
      const prefix = server.objects.prefix({
        group: rbacGroup(flavor),
        resource: 'clusterroles',
        namespace: '',
      });
      const all = (await server.objects.list(prefix)).items as unknown as ClusterRole[];
      const aggregated = all.filter((r) => r.aggregationRule);
      expect(aggregated.map((r) => r.metadata.name)).toEqual(
        expect.arrayContaining(['admin', 'edit', 'view']),
      );
      for (const role of aggregated) expect(sameRules(role.rules, aggregatedRules(role, all))).toBe(true);
      // `admin` aggregates `edit`, itself aggregated: the nested rules are there from the start.
      const admin = aggregated.find((r) => r.metadata.name === 'admin')!;
      const edit = aggregated.find((r) => r.metadata.name === 'edit')!;
      expect((edit.rules ?? []).length).toBeGreaterThan(0);
      expect((admin.rules ?? []).length).toBeGreaterThan((edit.rules ?? []).length);
    } finally {
      await server.close();
    }
  });
});
