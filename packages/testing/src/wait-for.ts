/**
 * Polls `check` until it returns a value other than `undefined`/`false`, and resolves to that value;
 * rejects after `timeoutMs` naming `what` (and the last error `check` threw). For conditions a server
 * reaches asynchronously: a new CRD's endpoints, a controller's deletion, a watch event.
 */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = performance.now() + timeoutMs; // not Date: a fake clock may stand still
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v as T;
    } catch (e) {
      last = e;
    }
    if (performance.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
