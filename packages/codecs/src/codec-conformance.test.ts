import { kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { createCborCodec } from './cbor/index.js';
import { jsonCodec } from './json.js';
import { createProtobufCodec } from './protobuf/index.js';
import { runCodecConformance } from './testing/index.js';
import { yamlCodec } from './yaml.js';

runCodecConformance('JSON', jsonCodec);
runCodecConformance('YAML', yamlCodec);
runCodecConformance('CBOR', createCborCodec());
runCodecConformance('Protobuf (orch)', createProtobufCodec(orchFlavor), { flavor: orchFlavor });
runCodecConformance('Protobuf (kubernetes)', createProtobufCodec(kubernetesFlavor), {
  flavor: kubernetesFlavor,
});
