/**
 * Sizes of a savepoint: per operator and subtask (sum of its handles' data sizes, taking a file's
 * real size when the handle says -1), the referenced files with who references them, files that
 * are missing, and files of the input that nothing references.
 */
import { isDecodeError, type SavepointFiles } from '../../io';
import { listOperatorStreamHandles, type StreamHandleUse } from './open-savepoint-list-handles';
import type { ResolvedStreamHandle, StreamHandleContext } from './stream-handle-types';
import type { CheckpointMetadata, StreamHandle } from '../metadata/metadata-types';

export interface SavepointTotals {
  metadataSize: number;
  /** `_metadata` plus every distinct referenced file that is present */
  totalSize: number;
  /** sum of all handle sizes (inline bytes + file/segment sizes) */
  stateSize: number;
  inlineSize: number;
  operators: { id: string; stateSize: number; subtasks: { index: number; stateSize: number; handles: number }[] }[];
  referencedFiles: { name: string; size: number; referencedBy: string[] }[];
  missingFiles: { name: string; referencedBy: string[] }[];
  /** input files next to `_metadata` that no handle references */
  unreferencedFiles: string[];
  warnings: string[];
}

type Resolve = (h: StreamHandle, c?: StreamHandleContext) => ResolvedStreamHandle;

export function computeSavepointTotals(metadata: CheckpointMetadata, files: SavepointFiles, resolve: Resolve): SavepointTotals {
  const referenced = new Map<string, { size: number; referencedBy: string[] }>();
  const missing = new Map<string, string[]>();
  const warnings: string[] = [];
  let stateSize = 0;
  let inlineSize = 0;
  const operators: SavepointTotals['operators'] = [];
  for (const op of metadata.operators) {
    const perSubtask = new Map<number, { index: number; stateSize: number; handles: number }>();
    for (const s of op.subtasks) perSubtask.set(s.index, { index: s.index, stateSize: 0, handles: 0 });
    let opSize = 0;
    for (const use of listOperatorStreamHandles(op)) {
      const size = measureHandle(use, op.id, resolve, referenced, missing, warnings);
      if (use.handle.kind === 'inline') inlineSize += size;
      opSize += size;
      const st = use.subtask === undefined ? undefined : perSubtask.get(use.subtask);
      if (st) {
        st.stateSize += size;
        st.handles++;
      }
    }
    stateSize += opSize;
    operators.push({ id: op.id, stateSize: opSize, subtasks: [...perSubtask.values()] });
  }
  const referencedNames = new Set(referenced.keys());
  const unreferencedFiles = files.files.filter((f) => f !== files.metadata && !referencedNames.has(f.name)).map((f) => f.name);
  let totalSize = metadata.size;
  for (const f of referenced.values()) totalSize += f.size;
  return {
    metadataSize: metadata.size,
    totalSize,
    stateSize,
    inlineSize,
    operators,
    referencedFiles: [...referenced].map(([name, v]) => ({ name, ...v })),
    missingFiles: [...missing].map(([name, referencedBy]) => ({ name, referencedBy })),
    unreferencedFiles,
    warnings: [...new Set(warnings)],
  };
}

function measureHandle(
  use: StreamHandleUse,
  operatorId: string,
  resolve: Resolve,
  referenced: Map<string, { size: number; referencedBy: string[] }>,
  missing: Map<string, string[]>,
  warnings: string[],
): number {
  const h = use.handle;
  const who = `operator ${operatorId}${use.subtask === undefined ? '' : ` subtask ${use.subtask}`} ${use.role}`;
  if (h.kind === 'inline') return h.size;
  if (h.kind === 'empty-segment') return 0;
  try {
    const r = resolve(h, { operatorId, ...(use.subtask === undefined ? {} : { subtask: use.subtask }), role: use.role });
    warnings.push(...r.warnings);
    const file = referenced.get(r.file) ?? { size: h.kind === 'segment-file' ? sizeOfFile(r) : r.source.size, referencedBy: [] };
    file.referencedBy.push(who);
    referenced.set(r.file, file);
    const declared = h.kind === 'legacy-key-groups' ? -1 : h.size;
    return declared >= 0 ? declared : r.source.size;
  } catch (e) {
    if (!isDecodeError(e) || e.code !== 'missing-file') throw e;
    const name = e.missingFile ?? e.file ?? '?';
    missing.set(name, [...(missing.get(name) ?? []), who]);
    warnings.push(e.message);
    return h.kind === 'legacy-key-groups' ? 0 : Math.max(h.size, 0);
  }
}

/** For a segment the referenced file is the whole physical file. */
function sizeOfFile(r: ResolvedStreamHandle): number {
  return r.baseOffset + r.source.size;
}
