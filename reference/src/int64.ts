// The int64 range and exact decimal parsing into it.

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

const DECIMAL_INTEGER = /^-?[0-9]+$/;

/**
 * Parses a decimal integer (optional minus sign, digits, leading zeros allowed) into an int64.
 * Returns undefined when the text is not such an integer or lies outside the int64 range.
 * Long digit strings are refused before BigInt() sees them: that keeps a 1 MiB run of digits
 * from costing anything.
 */
export function parseInt64(text: string): bigint | undefined {
  if (!DECIMAL_INTEGER.test(text)) return undefined;
  const negative = text.startsWith('-');
  const digits = (negative ? text.slice(1) : text).replace(/^0+(?=.)/, '');
  if (digits.length > 19) return undefined;
  const value = BigInt(negative ? `-${digits}` : digits);
  return value >= INT64_MIN && value <= INT64_MAX ? value : undefined;
}
