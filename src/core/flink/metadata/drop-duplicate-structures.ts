/**
 * Structures a `_metadata` holds more than once are read once, with a warning each, so that no
 * state is counted twice:
 *
 * - an operator id listed again: Flink loads the operators into a map, so the last one stands;
 * - a state name listed again in one operator state handle: the same (read-operator-state-handle.ts);
 * - a keyed handle or an operator state handle that reads the same bytes as one of another
 *   subtask (or slot) of the same operator — the same file (or segment), key groups or states and
 *   offsets: Flink writes each subtask's state to a stream of its own, so this is a copy, and only
 *   the first is kept. Inline handles are the same bytes only at the same offset of `_metadata`
 *   (two subtasks may well write identical state, e.g. a broadcast state).
 *
 * Work is linear in the handles: identical handles are found by a key (a hash of the offsets) and
 * confirmed by comparing them.
 */
import type { CheckpointMetadata, KeyedStateHandle, OperatorState, OperatorStateHandle, StreamHandle } from './metadata-types';

export function dropDuplicateStructures(metadata: CheckpointMetadata): CheckpointMetadata {
  const warnings: string[] = [];
  const operators = keepLastOperators(metadata.operators, warnings);
  for (const op of operators) {
    const label = `operator ${op.id}${op.uid ? ` (uid ${op.uid})` : ''}`;
    for (const s of op.subtasks) {
      for (const [slot, h] of [['managed', s.managedOperatorState], ['raw', s.rawOperatorState]] as const) {
        if (h?.duplicateNames) {
          for (const name of h.duplicateNames) warnings.push(`${label}, subtask ${s.index}, ${slot} operator state: state "${name}" is listed more than once; only its last list is read, as Flink reads it`);
        }
      }
    }
    dropCopiedHandles(op, label, warnings);
  }
  return warnings.length === 0 ? metadata : { ...metadata, operators, warnings };
}

function keepLastOperators(operators: OperatorState[], warnings: string[]): OperatorState[] {
  const last = new Map<string, OperatorState>();
  const times = new Map<string, number>();
  for (const op of operators) {
    last.set(op.id, op);
    times.set(op.id, (times.get(op.id) ?? 0) + 1);
  }
  if (last.size === operators.length) return operators;
  for (const [id, n] of times) {
    if (n > 1) warnings.push(`operator ${id} is listed ${n} times in _metadata; only the last is read, as Flink reads it`);
  }
  return operators.filter((op) => last.get(op.id) === op);
}

type Slot = 'managedKeyedState' | 'rawKeyedState' | 'managedOperatorState' | 'rawOperatorState';
const SLOT_LABEL: Record<Slot, string> = { managedKeyedState: 'managed keyed', rawKeyedState: 'raw keyed', managedOperatorState: 'managed operator', rawOperatorState: 'raw operator' };

/** A handle that repeats one of another subtask (or slot) of the operator is dropped from the later subtask. */
function dropCopiedHandles(op: OperatorState, label: string, warnings: string[]): void {
  const seen = new Map<string, { handle: KeyedStateHandle | OperatorStateHandle; where: string }[]>();
  for (const s of op.subtasks) {
    for (const slot of ['managedKeyedState', 'rawKeyedState', 'managedOperatorState', 'rawOperatorState'] as const) {
      const handle = s[slot];
      if (handle === null) continue;
      const key = handleKey(handle);
      if (key === undefined) continue;
      const where = `subtask ${s.index} ${SLOT_LABEL[slot]} state`;
      const same = seen.get(key)?.find((x) => sameHandle(x.handle, handle));
      if (same) {
        warnings.push(`${label}: the ${where} handle repeats the ${same.where} handle (the same bytes); it is read once`);
        s[slot] = null;
        continue;
      }
      const list = seen.get(key);
      if (list) list.push({ handle, where });
      else seen.set(key, [{ handle, where }]);
    }
  }
}

/** Key-group and operator state handles over stream data: a key of what they read (undefined for other kinds). */
function handleKey(h: KeyedStateHandle | OperatorStateHandle): string | undefined {
  if (h.kind === 'key-groups') return `k|${streamKey(h.delegate)}|${h.range.start}-${h.range.end}|${hashNumbers(h.offsets)}`;
  if (h.kind === 'operator') return `o|${streamKey(h.delegate)}|${h.states.map((e) => `${e.name}:${e.mode}:${e.offsets.length}:${hashNumbers(e.offsets)}`).join('|')}`;
  return undefined;
}

function streamKey(d: StreamHandle | null): string {
  if (d === null) return 'null';
  switch (d.kind) {
    case 'inline':
      return `inline:${d.offset}:${d.size}`;
    case 'relative-file':
      return `relative:${d.relativePath}`;
    case 'file':
      return `file:${d.path}`;
    case 'segment-file':
      return `segment:${d.physicalPath}:${d.start}:${d.size}`;
    case 'empty-segment':
      return 'empty';
    case 'legacy-key-groups':
      return `legacy:${d.range.start}-${d.range.end}:${hashNumbers(d.offsets)}:${streamKey(d.delegate)}`;
  }
}

function sameHandle(a: KeyedStateHandle | OperatorStateHandle, b: KeyedStateHandle | OperatorStateHandle): boolean {
  if (a.kind === 'key-groups' && b.kind === 'key-groups') return sameStream(a.delegate, b.delegate) && sameNumbers(a.offsets, b.offsets);
  if (a.kind === 'operator' && b.kind === 'operator') {
    return sameStream(a.delegate, b.delegate) && a.states.length === b.states.length && a.states.every((e, i) => e.name === b.states[i]!.name && sameNumbers(e.offsets, b.states[i]!.offsets));
  }
  return false;
}

function sameStream(a: StreamHandle | null, b: StreamHandle | null): boolean {
  return streamKey(a) === streamKey(b);
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** FNV-1a over the numbers' low and high 32 bits: a key, confirmed by sameNumbers */
function hashNumbers(values: readonly number[]): string {
  let h = 0x811c9dc5;
  for (const v of values) {
    h = Math.imul(h ^ (v >>> 0), 0x01000193);
    h = Math.imul(h ^ Math.floor(v / 4294967296), 0x01000193);
  }
  return `${values.length}:${(h >>> 0).toString(16)}`;
}
