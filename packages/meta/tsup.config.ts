import { packageBuild } from '../../tsup.base.ts';

// ./internal: helpers the other Orchard packages share, not part of the public API.
export default packageBuild(['src/index.ts', 'src/internal.ts']);
