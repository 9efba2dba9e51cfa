/** The quantity library; filled in once @orchard/meta's Quantity lands. */
import type { Environment } from '@marcbachmann/cel-js';

export function registerQuantity(_env: Environment): void {}
