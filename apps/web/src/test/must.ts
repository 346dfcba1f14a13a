/**
 * The value at an index or a match a test counts on; a missing one fails the test with a message
 * that says what was missing, instead of a TypeError further on.
 */
export function must<T>(value: T | undefined, what = 'a value'): T {
  if (value === undefined) throw new Error(`expected ${what}, found none`);
  return value;
}
