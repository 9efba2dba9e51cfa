/** The scanner of quantity strings: sign, integer and fraction digits, and the suffix as written. */
import { QuantityError } from './quantity-error.js';

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

export interface Scanned {
  positive: boolean;
  /** The signed number part as written (for the exact path). */
  value: string;
  /** Integer digits without leading zeros (`0` when none). */
  num: string;
  /** Fraction digits. */
  denom: string;
  suffix: string;
}

/** Upstream's hand-written scanner, including what it tolerates (`1.`, `.5`, `1.G`). */
export function scan(str: string): Scanned {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (str[0] === '-') {
    positive = false;
    pos++;
  } else if (str[0] === '+') pos++;
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  if (i >= end) return { positive, value: str, num: str.slice(pos), denom: '', suffix: '' };
  let num = str.slice(pos, i);
  if (num === '') num = '0';
  pos = i;
  let denom = '';
  if (str[pos] === '.') {
    pos++;
    i = pos;
    while (i < end && isDigit(str[i])) i++;
    denom = str.slice(pos, i);
    if (i >= end) return { positive, value: str, num, denom, suffix: '' };
    pos = i;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  while (pos < end && 'eEinumkKMGTP'.includes(str[pos] as string)) pos++;
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos < end) throw new QuantityError('FormatWrong');
  return { positive, value, num, denom, suffix: str.slice(suffixStart) };
}
