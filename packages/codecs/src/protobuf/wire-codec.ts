/**
 * The JSON form of an object straight to and from Protobuf wire bytes, driven by per-message
 * plans built once from the protobufjs reflection of the bundled `.proto` sources. No
 * intermediate message objects: encoding walks the JSON object into a protobufjs `Writer`,
 * decoding reads a `Reader` into JSON. The apimachinery messages with a JSON form of their own
 * (`Time`, `MicroTime`, `FieldsV1`, `RawExtension`, `IntOrString`, `Quantity`, `ExtraValue`)
 * are converted here, once; embedded Go structs (`json:",inline"`) and Go's `omitempty` are
 * applied from `presence.ts`.
 *
 * Decoding checks every length against the end of its enclosing message and every wire type
 * against the field's type; what does not fit throws `ConversionError` (`truncated` set when
 * the bytes end inside a value).
 */

export { ConversionError } from './conversion-error.js';
export { decodeMessage } from './wire-decode.js';
export { encodeMessage } from './wire-encode.js';
export { type MessagePlan, planOf } from './wire-plan.js';
