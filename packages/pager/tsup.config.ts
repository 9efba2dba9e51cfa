import { packageBuild } from '../../tsup.base.ts';

// ./internal: upstream's message wording, not part of the public API.
export default packageBuild(['src/index.ts', 'src/internal.ts']);
