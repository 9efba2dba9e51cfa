import { packageBuild } from '../../tsup.base.ts';

// ./internal: pieces the server and sibling packages share, not part of the public API.
export default packageBuild(['src/index.ts', 'src/internal.ts']);
