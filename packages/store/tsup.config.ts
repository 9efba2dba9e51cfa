import { packageBuild } from '../../tsup.base.ts';

// The conformance suite runs inside the caller's vitest.
export default packageBuild(['src/index.ts', 'src/testing/index.ts'], { external: ['vitest'] });
