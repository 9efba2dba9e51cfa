/** Why a JSON value and a Protobuf field did not fit, and the helpers that throw it. */

/** A value does not fit its field. `path` is filled in on the way out. */
export class ConversionError extends Error {
  constructor(
    public path: string,
    readonly detail: string,
    readonly truncated = false,
  ) {
    super(`${path || '<root>'}: ${detail}`);
    this.name = 'ConversionError';
  }

  /** Prefixes one path segment (`.field` or `[i]`) as the error travels up. */
  under(segment: string): ConversionError {
    this.path = segment + this.path;
    this.message = `${this.path.replace(/^\./, '') || '<root>'}: ${this.detail}`;
    return this;
  }
}

/** Throws a `ConversionError` at the current path (filled in on the way out). */
export function fail(detail: string): never {
  throw new ConversionError('', detail);
}

/** Throws the `ConversionError` of bytes that end inside a value. */
export function truncated(): never {
  throw new ConversionError('', 'the data ends inside a value', true);
}
