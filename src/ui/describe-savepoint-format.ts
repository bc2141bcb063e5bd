import type { InspectedOperator, SavepointInspection } from '../core/flink';

/**
 * The Overview's Format card. `_metadata` records a savepoint format (CANONICAL, NATIVE) only for
 * savepoints since Flink 1.15: a checkpoint, or an older savepoint, showed "unknown". Their keyed
 * state handles tell the layout instead, said as read from the state files.
 */
export function describeSavepointFormat(inspection: SavepointInspection): { value: string; sub?: string } {
  if (inspection.format !== 'unknown') return { value: inspection.format };
  const why = inspection.type === 'checkpoint' ? 'a checkpoint records no savepoint format' : 'this _metadata records no format';
  const layouts = new Map<string, string | undefined>();
  for (const op of inspection.operators) {
    const layout = LAYOUTS[op.keyedFormat];
    if (layout) layouts.set(layout.name, layout.files);
  }
  if (layouts.size === 0) return { value: 'not recorded', sub: `${why}, and no keyed state shows one` };
  if (layouts.size > 1) return { value: 'mixed', sub: `from the state files: ${[...layouts.keys()].join(', ')}; ${why}` };
  const [[name, files]] = [...layouts];
  return { value: name, sub: `from the state files${files ? ` (${files})` : ''}; ${why}` };
}

const LAYOUTS: Partial<Record<InspectedOperator['keyedFormat'], { name: string; files?: string }>> = {
  canonical: { name: 'CANONICAL' },
  // the HashMap backend's and RocksDB's full snapshots are the layout Flink calls canonical
  heap: { name: 'CANONICAL', files: 'full snapshot' },
  'rocksdb-full': { name: 'CANONICAL', files: 'full snapshot' },
  'rocksdb-native': { name: 'RocksDB native', files: 'SST' },
  changelog: { name: 'changelog' },
};
