import { type Quantity, quantityFromJson } from '@orchard/meta';

/** The quantity of a JSON value, or undefined when absent or malformed (validation reports those). */
export function quantityOf(v: unknown): Quantity | undefined {
  try {
    return v === undefined ? undefined : quantityFromJson(v);
  } catch {
    return undefined;
  }
}
