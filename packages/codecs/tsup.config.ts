import { packageBuild } from '../../tsup.base.ts';

export default packageBuild([
  'src/index.ts',
  'src/protobuf/index.ts',
  'src/cbor/index.ts',
  'src/table/index.ts',
]);
