/** The errors of parsing and converting quantities, with upstream's messages. */

import { hasBrand } from './brand.js';

/** Why a quantity failed to parse or convert. */
export type QuantityErrorCode = 'FormatWrong' | 'Numeric' | 'Suffix' | 'NotInteger';

/** The regular expression upstream's error message quotes. */
export const quantitySplitRegexp = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';

const messages: Record<QuantityErrorCode, string> = {
  FormatWrong: `quantities must match the regular expression '${quantitySplitRegexp}'`,
  Numeric: 'unable to parse numeric part of quantity',
  Suffix: "unable to parse quantity's suffix",
  NotInteger: 'cannot convert value to integer',
};

/** A quantity that cannot be parsed or converted. `code` says which of upstream's errors it is. */
export class QuantityError extends Error {
  readonly orchardQuantityError = true as const;
  readonly code: QuantityErrorCode;
  constructor(code: QuantityErrorCode, message = messages[code]) {
    super(message);
    this.name = 'QuantityError';
    this.code = code;
  }
}

/** Whether `e` is a `QuantityError`; works across copies of this package. */
export function isQuantityError(e: unknown): e is QuantityError {
  return hasBrand(e, 'orchardQuantityError');
}
