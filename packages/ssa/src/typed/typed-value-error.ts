/** Error for a value that does not fit its schema in a way the merge cannot work around. */
export class TypedValueError extends Error {
  readonly orchardSsaTypedValueError = true as const;
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(path === '' ? message : `${path}: ${message}`);
    this.name = 'TypedValueError';
  }
}
