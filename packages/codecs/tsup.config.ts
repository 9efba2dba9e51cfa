import { packageBuild } from '../../tsup.base.ts';

// The conformance suite (./testing) runs inside the caller's vitest.
export default packageBuild(
  [
    'src/index.ts',
    'src/protobuf/index.ts',
    'src/cbor/index.ts',
    'src/table/index.ts',
    'src/testing/index.ts',
  ],
  { external: ['vitest'] },
);
