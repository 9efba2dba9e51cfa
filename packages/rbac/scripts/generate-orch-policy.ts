/**
 * Writes `src/bootstrap/upstream-policy.orch.json`: the default policy (`upstream-policy.json`)
 * translated for the `orch` flavor, which `sharedDefaultPolicy` ships instead of translating it in
 * every process. Run it after changing either file or the translation:
 *
 *   node --import tsx packages/rbac/scripts/generate-orch-policy.ts
 *
 * `default-policy.test.ts` fails while the shipped file differs from what this writes.
 */
import { writeFileSync } from 'node:fs';
import { orchFlavor } from '@orchard/meta';
import { translatedPolicyData } from '../src/bootstrap/default-policy.js';

writeFileSync(
  new URL('../src/bootstrap/upstream-policy.orch.json', import.meta.url),
  `${JSON.stringify(translatedPolicyData(orchFlavor), null, 1)}\n`,
);
