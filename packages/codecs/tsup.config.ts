import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/protobuf/index.ts', 'src/cbor/index.ts', 'src/table/index.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
});
