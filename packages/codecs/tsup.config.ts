import { packageBuild } from '../../tsup.base.ts';

// The conformance suite (./testing) runs inside the caller's vitest; ./internal is not public API.
export default packageBuild(
  [
    'src/index.ts',
    'src/protobuf/index.ts',
    'src/cbor/index.ts',
    'src/table/index.ts',
    'src/testing/index.ts',
    'src/internal.ts',
  ],
  { external: ['vitest'] },
);
