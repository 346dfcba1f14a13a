/**
 * The one form under which account names are stored for lookup and counted by login throttling:
 * Unicode NFC, then full case folding. JavaScript has no case-fold function; upper- then lower-casing
 * folds like Unicode full case folding for names people type (ß and SS, ς and σ, ﬁ and fi alike),
 * and doing it here, not in SQL, keeps SQLite and PostgreSQL in agreement.
 */
export function nameKey(name: string): string {
  return name.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}
