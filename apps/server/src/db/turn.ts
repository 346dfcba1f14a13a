/** Lets timers and I/O run between statements or slices of work (better-sqlite3 answers synchronously). */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
