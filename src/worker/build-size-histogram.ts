import { ALIASING_THRESHOLD_BYTES } from '../core/protobuf';
import type { SizeBin } from './inspector';

const binOf = (n: number) => (n <= 0 ? 0 : Math.floor(Math.log2(n)) + 1);

/**
 * Payload sizes counted into power-of-two bins ([0,1), [1,2), [2,4) … ) as they come: memory is one
 * counter per bin, whatever the number of values. 4 KiB (the aliasing threshold) is always a bin edge.
 */
export class SizeHistogram {
  private readonly counts: number[] = [];
  private values = 0;

  add(size: number): void {
    const b = binOf(size);
    while (this.counts.length <= b) this.counts.push(0);
    this.counts[b]!++;
    this.values++;
  }

  finish(): SizeBin[] {
    if (this.values === 0) return [];
    const last = Math.max(this.counts.length - 1, binOf(ALIASING_THRESHOLD_BYTES) + 1);
    const bins: SizeBin[] = [];
    for (let b = 0; b <= last; b++) bins.push({ from: b === 0 ? 0 : 2 ** (b - 1), to: b === 0 ? 1 : 2 ** b, count: this.counts[b] ?? 0 });
    return bins;
  }
}

/** The bins of some sizes at once (SizeHistogram over the list). */
export function buildSizeHistogram(sizes: readonly number[]): SizeBin[] {
  const h = new SizeHistogram();
  for (const n of sizes) h.add(n);
  return h.finish();
}
