/**
 * A small deterministic PRNG (mulberry32) for the mutation suite: the same seed gives the same
 * cases on every machine, so a failure can be replayed by its case name. No Math.random anywhere.
 */
export interface SeededRandom {
  /** uniform float in [0, 1) */
  next(): number;
  /** uniform integer in [0, n) */
  int(n: number): number;
  /** `count` distinct integers of [0, n), sorted; all of them when count >= n */
  sample(n: number, count: number): number[];
}

export function createSeededRandom(seed: number): SeededRandom {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  const sample = (n: number, count: number): number[] => {
    if (count >= n) return Array.from({ length: n }, (_, i) => i);
    const picked = new Set<number>();
    while (picked.size < count) picked.add(int(n));
    return [...picked].sort((x, y) => x - y);
  };
  return { next, int, sample };
}

/** A stable 32-bit seed from a text (FNV-1a), so each input gets its own reproducible stream. */
export function seedFromText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
