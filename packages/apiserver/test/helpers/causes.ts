import { expect } from 'vitest';

/** One `details.causes` entry of a 422 Status. */
export interface Cause {
  readonly field: string;
  readonly message: string;
  readonly reason?: string;
}

/** The causes of a Status body (none when it has no details). */
export function causesOf(json: unknown): Cause[] {
  return ((json as { details?: { causes?: Cause[] } }).details?.causes ?? []) as Cause[];
}

/** Asserts that a Status names each `[field, message fragment]` among its causes. */
export function expectCauses(json: unknown, expected: readonly (readonly [string, string])[]): void {
  const got = causesOf(json);
  for (const [field, message] of expected) {
    const cause = got.find((c) => c.field === field);
    expect(cause, `${field} in ${JSON.stringify(got)}`).toBeDefined();
    expect(cause?.message).toContain(message);
  }
}
