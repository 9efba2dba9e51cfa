import { hasBrand } from '@orchard/meta/internal';
import { CodecError, isCodecError } from '../codec.js';

/**
 * Why a binary body (Protobuf or CBOR) could not be decoded:
 * - `BadPrefix`: not the `6b 38 73 00` Protobuf prefix (or not the self-described CBOR tag when
 *   one is required);
 * - `Truncated`: the bytes end inside a value;
 * - `UnknownType`: well-formed, but of a kind this codec has no message for;
 * - `Malformed`: anything else (bad wire type, bad UTF-8 JSON inside a raw field, bad time …).
 */
export type WireDecodeReason = 'BadPrefix' | 'Truncated' | 'UnknownType' | 'Malformed';

/**
 * What the Protobuf and CBOR decoders throw. It is a `CodecError` with code `Malformed`, so the
 * server answers 400 without knowing the binary codecs; `reason` says which failure it was.
 */
export class WireDecodeError extends CodecError {
  readonly orchardWireDecodeError = true as const;
  readonly reason: WireDecodeReason;

  constructor(reason: WireDecodeReason, mediaType: string, message: string) {
    super('Malformed', mediaType, message);
    this.name = 'WireDecodeError';
    this.reason = reason;
  }
}

/** Whether `e` is a Protobuf `WireDecodeError` (of `reason`, when given). */
export function isWireDecodeError(e: unknown, reason?: WireDecodeReason): e is WireDecodeError {
  return (
    isCodecError(e) &&
    hasBrand(e, 'orchardWireDecodeError') &&
    (reason === undefined || (e as WireDecodeError).reason === reason)
  );
}
