/**
 * The benches' one drain of an SstMerge (figure-rocksdb-scan's own scan, figure-rocksdb-peer's side of the
 * comparison): every merged entry handed to `visit` while the merge's fields (key, value, …) hold it, the
 * blocks read as the merge asks for them.
 */
import { SST_END, SST_NEED_BLOCK, type SstMerge } from '../src/core/flink';

export async function drainSstMerge(merge: SstMerge, visit: (merge: SstMerge) => void): Promise<void> {
  for (;;) {
    const r = merge.next();
    if (r === SST_NEED_BLOCK) {
      await merge.load();
      continue;
    }
    if (r === SST_END) return;
    visit(merge);
  }
}
