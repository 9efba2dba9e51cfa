/**
 * A value made on first use and kept once made: concurrent first uses share one attempt, and a failed
 * attempt is not kept, so the next use tries again (a JWKS discovery that failed while the issuer was
 * down is retried by the next token).
 */
export function onceReady<T>(make: () => Promise<T>): () => Promise<T> {
  let made: { value: T } | undefined;
  let making: Promise<T> | undefined;
  return async () => {
    if (made) return made.value;
    making ??= make().finally(() => {
      making = undefined;
    });
    const value = await making;
    made = { value };
    return value;
  };
}
