/** The target line a page URL names (`?target=0.x`); see choose-target-line.ts. */
import type { LibraryLine } from '../../core/compat';

const LINES: readonly LibraryLine[] = ['0.x', '1.x'];

/** The target line the page URL names, or null when it names none (or something else). */
export function readTargetLine(search: string): LibraryLine | null {
  const value = new URLSearchParams(search).get('target');
  return LINES.find((l) => l === value) ?? null;
}
