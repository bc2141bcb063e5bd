/**
 * Reads one `OperatorStateHandle` of `_metadata`: code 4 (`OperatorStreamStateHandle`)
 * or 17 (file-merging variant), the state-name → (mode, offsets) entries, then the data stream handle.
 * The entries are a map in Flink, so of a name listed twice only the last list is read: those
 * lists may not share an offset. All entries are kept here, as written (drop-duplicate-structures.ts
 * drops the earlier lists of a name when the savepoint is opened).
 */
import type { ByteReader } from '../../io';
import { checkOffsetsTaken, readHandleOffsets, type TakenOffsets } from './read-handle-primitives';
import { readStreamHandle } from './read-stream-handle';
import type { DistributionMode, OperatorStateEntry, OperatorStateHandle } from './metadata-types';

const MODES: readonly DistributionMode[] = ['SPLIT_DISTRIBUTE', 'UNION', 'BROADCAST'];

export function readOperatorStateHandle(r: ByteReader, depth = 0): OperatorStateHandle | null {
  const at = r.position;
  const code = r.readI8('operator state handle type code');
  if (code === 0) return null;
  if (code !== 4 && code !== 17) {
    const hint = [3, 5, 7, 8, 9, 10, 11, 12, 13, 14].includes(code) ? ', which is a keyed handle code' : '';
    throw r.error('invalid-value', `expected an operator state handle type code (0, 4 or 17), found ${code}${hint}`, at);
  }
  // each entry: utf name (>= 2) + mode (1) + offset count (4)
  const n = r.readCount('operator state entries', 7);
  const read: { entry: OperatorStateEntry; offsetsAt: number }[] = [];
  for (let i = 0; i < n; i++) read.push(readEntry(r, i));
  // every element Flink reads (the last list of each name) starts at an offset of its own
  const last = new Map(read.map((x) => [x.entry.name, x.entry]));
  const taken: TakenOffsets = new Map();
  for (const { entry, offsetsAt } of read)
    if (last.get(entry.name) === entry) checkOffsetsTaken(r, entry.offsets, offsetsAt, `offsets of state "${entry.name}"`, taken);
  const states = read.map((x) => x.entry);
  if (code === 4) return { kind: 'operator', code, states, delegate: readStreamHandle(r, depth + 1) };
  const taskOwnedDirectory = r.readUtf('task-owned directory');
  const sharedDirectory = r.readUtf('shared directory');
  const emptyPlaceholder = r.readBool('empty placeholder flag');
  const delegateAt = r.position;
  const delegate = readStreamHandle(r, depth + 1);
  if (delegate === null || (delegate.kind !== 'segment-file' && delegate.kind !== 'empty-segment')) {
    throw r.error(
      'invalid-value',
      `expected a segment file handle (code 15 or 16) in a file-merging operator handle, found ${delegate === null ? 'a null handle' : `a ${delegate.kind} handle`}`,
      delegateAt,
    );
  }
  return { kind: 'operator', code, states, delegate, taskOwnedDirectory, sharedDirectory, emptyPlaceholder };
}

function readEntry(r: ByteReader, i: number): { entry: OperatorStateEntry; offsetsAt: number } {
  const name = r.readUtf(`name of operator state entry #${i}`);
  const modeAt = r.position;
  const ordinal = r.readI8(`distribution mode of state "${name}"`);
  const mode = MODES[ordinal];
  if (mode === undefined) {
    throw r.error('invalid-value', `expected distribution mode 0 (SPLIT_DISTRIBUTE), 1 (UNION) or 2 (BROADCAST) for state "${name}", found ${ordinal}`, modeAt);
  }
  const countAt = r.position;
  const count = r.readI32(`number of offsets of state "${name}"`);
  r.checkCount(count, `offsets of state "${name}"`, 8, Number.MAX_SAFE_INTEGER, countAt);
  const offsetsAt = r.position;
  return { entry: { name, mode, offsets: readHandleOffsets(r, count, `offsets of state "${name}"`) }, offsetsAt };
}
