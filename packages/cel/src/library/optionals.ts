/** Optionals beyond the engine's own (`optional.of`, `none`, `?.`, `[?]`, `or`, `orValue`, `hasValue`, `value`). */
import { type Environment, Optional } from '@marcbachmann/cel-js';
import { isZeroValue } from './values.js';

export function registerOptionals(env: Environment): void {
  env.registerFunction('OptionalNamespace.ofNonZeroValue(A): optional<A>', (_ns: unknown, v: unknown) =>
    isZeroValue(v) ? Optional.none() : Optional.of(v),
  );
}
