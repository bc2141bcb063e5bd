/**
 * "Did you mean …?" for a mistyped command or option: the closest known name by the optimal string
 * alignment distance (Damerau–Levenshtein with adjacent transpositions: `chekc` → `check` is one
 * edit), accepted within a third of the typed length (at least 2, at most 3 edits), or a known name
 * the typed one starts or is the start of (`--form` → `--format`). Ties go to the earlier name.
 */

/** The edit distance between `a` and `b`: insertions, deletions, substitutions and adjacent transpositions. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The known name closest to `typed`, or undefined when none is close enough to suggest. */
export function suggestName(typed: string, known: readonly string[]): string | undefined {
  const allowed = Math.min(3, Math.max(2, Math.floor(typed.length / 3)));
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(typed, name);
    const prefix = typed.length >= 2 && (name.startsWith(typed) || typed.startsWith(name));
    if (distance > allowed && !prefix) continue;
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  return best?.name;
}
