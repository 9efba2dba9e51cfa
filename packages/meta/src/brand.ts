/**
 * Whether `value` is an object whose property `brand` is `true`: how the error guards of the Orchard
 * packages recognise their errors without `instanceof`, which fails across two copies of a package.
 */
export function hasBrand(value: unknown, brand: string | symbol): boolean {
  return (
    typeof value === 'object' && value !== null && (value as Record<string | symbol, unknown>)[brand] === true
  );
}
