import { packageBuild } from '../../tsup.base.ts';

// ./internal: the configuration-file machinery authz and the server share, not part of the public API.
export default packageBuild(['src/index.ts', 'src/internal.ts']);
