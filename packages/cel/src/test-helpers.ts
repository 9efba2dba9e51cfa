/**
 * Test support shared by the package's tests (not exported from the package): the error a call
 * throws, so a test asserts a `CelError`'s code and message without its own try/catch.
 */

/** The error `fn` throws, or `undefined` when it returns. */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}
