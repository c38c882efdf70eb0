/**
 * Non-negative decimal strings ("2.5", "0.000001") as integers scaled by a power of ten, so money
 * is computed exactly: no binary floating point anywhere between a price and a charge.
 */
const NON_NEGATIVE_DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** `value` × 10^digits as a BigInt; throws a RangeError for anything but a plain non-negative decimal of at most `digits` fractional digits. */
export function toScaledInteger(value: string, digits: number): bigint {
  const match = NON_NEGATIVE_DECIMAL.exec(value);
  if (!match) throw new RangeError(`"${value}" is not a non-negative decimal number`);
  const [, whole, fraction = ''] = match;
  if (fraction.length > digits) {
    throw new RangeError(`"${value}" has more than ${digits} fractional digits`);
  }
  return BigInt(whole + fraction.padEnd(digits, '0'));
}

/** The canonical spelling of a non-negative decimal: no leading zeros, no trailing fractional zeros ("02.500" → "2.5", "1.000" → "1"). */
export function normalizeDecimal(value: string): string {
  const match = NON_NEGATIVE_DECIMAL.exec(value);
  if (!match) throw new RangeError(`"${value}" is not a non-negative decimal number`);
  const whole = match[1].replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}
