import { formatMicroTime, formatRfc3339, tryParseQuantity } from '@orchard/meta';
import { getOwn, isJsonObject, parseRfc3339Parts, setOwn } from '@orchard/meta/internal';
import { fieldSchema, type StructuralSchema } from '@orchard/schema';
import { objectMetaSchema } from '@orchard/schema/internal';

/**
 * The `metav1.MicroTime` fields of the built-in kinds, as paths without list indices. Upstream's
 * OpenAPI gives `Time` and `MicroTime` the same `date-time` format, so the kind says which is which.
 */
const microTimeFields: Readonly<Record<string, ReadonlySet<string>>> = {
  Event: new Set(['eventTime', 'series.lastObservedTime']),
  Lease: new Set(['spec.acquireTime', 'spec.renewTime']),
};

const noMicroTimes: ReadonlySet<string> = new Set();

function canonicalTime(value: string, micro: boolean): string {
  const { date, nanos } = parseRfc3339Parts(value);
  // Go's time formatting truncates: whole seconds for Time, whole microseconds for MicroTime.
  return micro ? formatMicroTime(date, Math.floor(nanos / 1000) % 1000) : formatRfc3339(date);
}

function canonicalQuantity(value: string | number): string | undefined {
  return tryParseQuantity(typeof value === 'number' ? String(value) : value.trim())?.toString();
}

/**
 * Rewrites the values of a built-in kind into the forms upstream's typed decoder and encoder give
 * them: a write is decoded into Go structs and stored re-encoded, so Quantities come back canonical
 * (`0.5` → `500m`, `1000m` → `1`, `1024Mi` → `1Gi`), `metav1.Time` as whole seconds in UTC (`Z`)
 * and `metav1.MicroTime` with six fractional digits. Values that do not parse are left for
 * validation to report. Iterative, so any depth the body bound allows is fine.
 */
export function canonicalizeGoValues(obj: unknown, schema: StructuralSchema, kind: string): void {
  const micro = microTimeFields[kind] ?? noMicroTimes;
  const stack: [Record<string, unknown>, StructuralSchema, string][] = [];
  const visit = (v: unknown, s: StructuralSchema | undefined, path: string) => {
    if (s === undefined) return;
    if (Array.isArray(v)) {
      for (const item of v) visit(item, s.items, path);
    } else if (isJsonObject(v)) stack.push([v, s, path]);
  };
  visit(obj, schema, '');
  while (stack.length > 0) {
    const [o, s, path] = stack.pop() as [Record<string, unknown>, StructuralSchema, string];
    for (const k of Object.keys(o)) {
      const child = path === '' && k === 'metadata' ? objectMetaSchema : fieldSchema(s, k);
      if (child === undefined) continue;
      const v = getOwn(o, k);
      const at = path === '' ? k : `${path}.${k}`;
      if (child.format === 'quantity' && (typeof v === 'string' || typeof v === 'number')) {
        const q = canonicalQuantity(v);
        if (q !== undefined) setOwn(o, k, q);
      } else if (child.format === 'date-time' && typeof v === 'string') {
        try {
          setOwn(o, k, canonicalTime(v, micro.has(at)));
        } catch {
          // not RFC 3339: the decoding check or validation reports it
        }
      } else visit(v, child, at);
    }
  }
}
