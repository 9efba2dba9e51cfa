import { packageBuild } from '../../tsup.base.ts';

// etcd3 and its gRPC stack stay runtime dependencies, never bundled.
export default packageBuild(['src/index.ts', 'src/testing/index.ts'], { external: ['etcd3', 'cockatiel'] });
