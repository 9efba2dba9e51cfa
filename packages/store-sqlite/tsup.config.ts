import { packageBuild } from '../../tsup.base.ts';

// better-sqlite3 is a native addon: it stays a runtime dependency, never bundled.
export default packageBuild(['src/index.ts'], { external: ['better-sqlite3'] });
