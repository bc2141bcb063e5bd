/**
 * Structures a `_metadata` holds more than once are read once, with a warning each, so that no
 * state is counted twice:
 *
 * - an operator id listed again: Flink loads the operators into a map, so the last one stands;
 * - a state name listed again in one operator state handle: the same;
 * - a keyed handle or an operator state handle that reads the same bytes as one of another
 *   subtask (or slot) of the same operator — the same file (or segment), key groups or states and
 *   offsets: Flink writes each subtask's state to a stream of its own, so this is a copy, and only
 *   the first is kept. Inline handles are the same bytes only at the same offset of `_metadata`
 *   (two subtasks may well write identical state, e.g. a broadcast state).
 *
 * Work is linear in the handles: identical handles are found by a key (a hash of the offsets) and
 * confirmed by comparing them. The model read from `_metadata` is not changed: what differs is
 * copied. Applied by openSavepoint (readCheckpointMetadata itself reads `_metadata` as written).
 */
import type { CheckpointMetadata, KeyedStateHandle, OperatorState, OperatorStateHandle, StreamHandle } from './metadata-types';

/** The metadata with each duplicated structure read once, and a warning for each in `warnings` (unchanged when there is none). */
export function dropDuplicateStructures(metadata: CheckpointMetadata): CheckpointMetadata {
  const warnings: string[] = [];
  const operators = keepLastOperators(metadata.operators, warnings).map((op) => {
    const label = `operator ${op.id}${op.uid ? ` (uid ${op.uid})` : ''}`;
    const subtasks = op.subtasks.map((s) => {
      const managed = keepLastLists(s.managedOperatorState, `${label}, subtask ${s.index}, managed operator state`, warnings);
      const raw = keepLastLists(s.rawOperatorState, `${label}, subtask ${s.index}, raw operator state`, warnings);
      return managed === s.managedOperatorState && raw === s.rawOperatorState ? s : { ...s, managedOperatorState: managed, rawOperatorState: raw };
    });
    return dropCopiedHandles({ ...op, subtasks }, label, warnings);
  });
  return warnings.length === 0 ? metadata : { ...metadata, operators, warnings };
}

/** Of a state listed more than once in one handle, the last list (Flink reads the entries into a map). */
function keepLastLists(h: OperatorStateHandle | null, where: string, warnings: string[]): OperatorStateHandle | null {
  if (h === null) return h;
  const last = new Map(h.states.map((e) => [e.name, e]));
  if (last.size === h.states.length) return h;
  for (const name of new Set(h.states.filter((e) => last.get(e.name) !== e).map((e) => e.name))) {
    warnings.push(`${where}: state "${name}" is listed more than once; only its last list is read, as Flink reads it`);
  }
  return { ...h, states: h.states.filter((e) => last.get(e.name) === e) };
}

function keepLastOperators(operators: readonly OperatorState[], warnings: string[]): readonly OperatorState[] {
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
const SLOT_LABEL: Record<Slot, string> = {
  managedKeyedState: 'managed keyed',
  rawKeyedState: 'raw keyed',
  managedOperatorState: 'managed operator',
  rawOperatorState: 'raw operator',
};

/** A handle that repeats one of another subtask (or slot) of the operator is dropped from the later subtask. */
function dropCopiedHandles(op: OperatorState, label: string, warnings: string[]): OperatorState {
  const seen = new Map<string, { handle: KeyedStateHandle | OperatorStateHandle; where: string }[]>();
  let changed = false;
  const subtasks = op.subtasks.map((s) => {
    let kept = s;
    for (const slot of ['managedKeyedState', 'rawKeyedState', 'managedOperatorState', 'rawOperatorState'] as const) {
      const handle = s[slot];
      if (handle === null) continue;
      const key = handleKey(handle);
      if (key === undefined) continue;
      const where = `subtask ${s.index} ${SLOT_LABEL[slot]} state`;
      const same = seen.get(key)?.find((x) => sameHandle(x.handle, handle));
      if (same) {
        warnings.push(`${label}: the ${where} handle repeats the ${same.where} handle (the same bytes); it is read once`);
        kept = { ...kept, [slot]: null };
        changed = true;
        continue;
      }
      const list = seen.get(key);
      if (list) list.push({ handle, where });
      else seen.set(key, [{ handle, where }]);
    }
    return kept;
  });
  return changed ? { ...op, subtasks } : op;
}

/**
 * Key-group and operator state handles that read stream data: a key of what they read. Undefined
 * for other kinds, and for a handle that reads nothing (no data stream, no offsets): it cannot be
 * counted twice.
 */
function handleKey(h: KeyedStateHandle | OperatorStateHandle): string | undefined {
  const d = h.kind === 'key-groups' || h.kind === 'operator' ? h.delegate : null;
  if (d === null || d.kind === 'empty-segment') return undefined;
  if (h.kind === 'key-groups')
    return h.offsets.some((o) => o !== 0) ? `k|${streamKey(d)}|${h.range.start}-${h.range.end}|${hashNumbers(h.offsets)}` : undefined;
  if (h.kind === 'operator')
    return h.states.some((e) => e.offsets.length > 0)
      ? `o|${streamKey(d)}|${h.states.map((e) => `${e.name}:${e.mode}:${hashNumbers(e.offsets)}`).join('|')}`
      : undefined;
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
    return (
      sameStream(a.delegate, b.delegate) &&
      a.states.length === b.states.length &&
      a.states.every((e, i) => e.name === b.states[i]!.name && sameNumbers(e.offsets, b.states[i]!.offsets))
    );
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
