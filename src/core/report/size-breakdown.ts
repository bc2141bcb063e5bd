/**
 * Where a savepoint's bytes are, by operator → state → subtask, from `_metadata`'s handles and the
 * inspection's state list alone (no state bytes read): the size chart of the app's Overview and the
 * "where the bytes are" section of `inspect`/`stats`. Plain data (JSON as it is).
 *
 * How a handle's bytes are given to states, never split silently:
 * - an operator state stream: by the offsets `_metadata` records per state (each element's start), every
 *   byte from one offset to the next (or the end of the handle) to the state owning the offset; the bytes
 *   before the first offset are the stream's header (`attribution: 'header'`);
 * - a keyed stream in key groups (canonical, heap, RocksDB full): the bytes before the first key group's
 *   offset are its header; the rest to its state when it holds one, else one part shared by its states
 *   (the handles do not say how a key group's bytes divide among states);
 * - RocksDB native (incremental) and changelog handles: one part shared by the subtask's keyed states
 *   (an SST file's column family is not in the handles);
 * - the coordinator's state: a part of its own.
 */
import type { CheckpointMetadata, InspectedState, KeyedStateHandle, OperatorState, SavepointInspection, StateScope, StreamHandle } from '../flink';
import { describeProtobufSnapshots } from '../protobuf';

/** What a part holds, for its colour: keyed state, operator (or broadcast, or coordinator) state, timers, values of the Protobuf serializer. */
export type SizeKind = 'keyed' | 'operator' | 'timers' | 'protobuf';

/** How a part's bytes were attributed (see the file's comment). */
export type SizeAttribution = 'whole-handle' | 'offsets' | 'header' | 'shared';

export interface SizeBreakdown {
  /** every handle's bytes (inline and files), `_metadata` not included */
  totalBytes: number;
  /** largest first; operators without state are left out */
  operators: OperatorSizes[];
}

export interface OperatorSizes {
  operatorId: string;
  name?: string;
  uid?: string;
  bytes: number;
  /** largest first */
  parts: SizePart[];
  /** from the key groups' offsets of its keyed streams (canonical, heap, RocksDB full); absent for other formats or no keyed state */
  keyGroups?: KeyGroupSizes;
}

export interface SizePart {
  /** the state's name, or what the shared part is (`keyed state of 4 states (shared)`, `operator state header`, …) */
  label: string;
  /** the states whose bytes these are: one for a state's own part, several for a shared part or header */
  states: string[];
  scope: 'keyed' | 'operator' | 'coordinator';
  kind: SizeKind;
  bytes: number;
  attribution: SizeAttribution;
  /** by subtask index, in index order (none for the coordinator) */
  subtasks: { subtask: number; bytes: number }[];
}

/** Bytes per key group of an operator's keyed streams: the largest against the median of the key groups holding data. */
export interface KeyGroupSizes {
  /** key groups holding data */
  withData: number;
  largest: { keyGroup: number; bytes: number };
  median: number;
  /** largest / median (1 when even) */
  skew: number;
}

/** A state the breakdown gives bytes to: from the inspection (sizedStatesOf), or from `stats`' scan. */
export interface SizedState {
  operatorId: string;
  name: string;
  scope: StateScope;
  kind: SizeKind;
  /** the subtasks whose streams hold it (undefined: every subtask of its operator) */
  subtasks?: readonly number[];
}

/** The inspection's states, with their kinds. */
export function sizedStatesOf(inspection: SavepointInspection): SizedState[] {
  return inspection.operators.flatMap((op) =>
    op.states.map((s) => ({ operatorId: op.id, name: s.name, scope: s.scope, kind: sizeKindOf(s), subtasks: s.subtasks })),
  );
}

export function buildSizeBreakdown(metadata: CheckpointMetadata, states: readonly SizedState[]): SizeBreakdown {
  const operators: OperatorSizes[] = [];
  for (const op of metadata.operators) {
    const sizes = sizeOperator(
      op,
      states.filter((s) => s.operatorId === op.id),
    );
    if (sizes.bytes > 0) operators.push(sizes);
  }
  operators.sort((a, b) => b.bytes - a.bytes || a.operatorId.localeCompare(b.operatorId));
  return { totalBytes: operators.reduce((s, o) => s + o.bytes, 0), operators };
}

/** The kind of a state for its colour: timers before Protobuf before scope. */
export function sizeKindOf(s: Pick<InspectedState, 'name' | 'scope' | 'backendStateType' | 'valueSerializer'>): SizeKind {
  if (s.backendStateType === 'PRIORITY_QUEUE' || s.name.startsWith('_timer_state/')) return 'timers';
  if (describeProtobufSnapshots(s.valueSerializer).length > 0) return 'protobuf';
  return s.scope === 'keyed' ? 'keyed' : 'operator';
}

class Parts {
  readonly byKey = new Map<string, SizePart & { bySubtask: Map<number, number> }>();
  add(key: string, part: Omit<SizePart, 'bytes' | 'subtasks'>, subtask: number | undefined, bytes: number): void {
    let p = this.byKey.get(key);
    if (p === undefined) this.byKey.set(key, (p = { ...part, bytes: 0, subtasks: [], bySubtask: new Map() }));
    p.bytes += bytes;
    if (subtask !== undefined) p.bySubtask.set(subtask, (p.bySubtask.get(subtask) ?? 0) + bytes);
  }
  list(): SizePart[] {
    return [...this.byKey.values()]
      .map(({ bySubtask, ...p }) => ({ ...p, subtasks: [...bySubtask].sort((a, b) => a[0] - b[0]).map(([subtask, bytes]) => ({ subtask, bytes })) }))
      .filter((p) => p.bytes > 0)
      .sort((a, b) => b.bytes - a.bytes || a.label.localeCompare(b.label));
  }
}

function sizeOperator(op: OperatorState, states: readonly SizedState[]): OperatorSizes {
  const parts = new Parts();
  const keyGroupBytes: number[] = [];
  const keyGroupIds: number[] = [];
  if (op.coordinatorState) {
    parts.add(
      'coordinator',
      { label: 'coordinator state', states: [], scope: 'coordinator', kind: 'operator', attribution: 'whole-handle' },
      undefined,
      handleBytes(op.coordinatorState),
    );
  }
  const kindOf = new Map(states.map((s) => [`${s.scope === 'keyed' ? 'keyed' : 'operator'}\u0000${s.name}`, s.kind]));
  const kindOfSet = (scope: 'keyed' | 'operator', names: readonly string[]): SizeKind => {
    const kinds = new Set(names.map((n) => kindOf.get(`${scope}\u0000${n}`) ?? scope));
    return kinds.size === 1 ? [...kinds][0]! : scope;
  };
  for (const s of op.subtasks) {
    for (const [raw, h] of [
      [false, s.managedOperatorState],
      [true, s.rawOperatorState],
    ] as const) {
      if (h === null || h.delegate === null) continue;
      const total = handleBytes(h.delegate);
      const starts = h.states.flatMap((st) => st.offsets.map((offset) => ({ offset, name: st.name }))).sort((a, b) => a.offset - b.offset);
      const names = h.states.map((st) => st.name);
      const headerEnd = Math.min(starts[0]?.offset ?? total, total);
      const prefix = raw ? 'raw operator state' : 'operator state';
      parts.add(
        `${prefix} header`,
        { label: `${prefix} header`, states: names, scope: 'operator', kind: 'operator', attribution: 'header' },
        s.index,
        headerEnd,
      );
      starts.forEach((st, i) => {
        const end = Math.min(starts[i + 1]?.offset ?? total, total);
        const name = raw ? `${st.name} (raw)` : st.name;
        parts.add(
          `op\u0000${name}`,
          { label: name, states: [st.name], scope: 'operator', kind: kindOfSet('operator', [st.name]), attribution: 'offsets' },
          s.index,
          Math.max(end - st.offset, 0),
        );
      });
    }
    const keyedNames = states.filter((st) => st.scope === 'keyed' && (st.subtasks === undefined || st.subtasks.includes(s.index))).map((st) => st.name);
    for (const [raw, h] of [
      [false, s.managedKeyedState],
      [true, s.rawKeyedState],
    ] as const) {
      if (h === null) continue;
      const held = raw ? [] : keyedNames;
      const prefix = raw ? 'raw keyed state' : 'keyed state';
      const total = keyedHandleBytes(h, 0);
      if (h.kind === 'key-groups') {
        const withData = h.offsets.map((offset, i) => ({ offset, keyGroup: h.range.start + i })).filter((k) => k.offset > 0);
        const headerEnd = Math.min(withData[0]?.offset ?? total, total);
        if (!raw) {
          withData.forEach((k, i) => {
            keyGroupIds.push(k.keyGroup);
            keyGroupBytes.push(Math.max(Math.min(withData[i + 1]?.offset ?? total, total) - k.offset, 0));
          });
        }
        parts.add(`${prefix} header`, { label: `${prefix} header`, states: held, scope: 'keyed', kind: 'keyed', attribution: 'header' }, s.index, headerEnd);
        addKeyedData(parts, prefix, held, kindOfSet, s.index, total - headerEnd, 'whole-handle');
      } else {
        addKeyedData(parts, prefix, held, kindOfSet, s.index, total, h.kind === 'incremental' ? 'rocksdb' : 'changelog');
      }
    }
  }
  const list = parts.list();
  const keyGroups = describeKeyGroups(keyGroupIds, keyGroupBytes);
  return {
    operatorId: op.id,
    ...(op.name !== undefined ? { name: op.name } : {}),
    ...(op.uid !== undefined ? { uid: op.uid } : {}),
    bytes: list.reduce((sum, p) => sum + p.bytes, 0),
    parts: list,
    ...(keyGroups ? { keyGroups } : {}),
  };
}

function addKeyedData(
  parts: Parts,
  prefix: string,
  held: readonly string[],
  kindOfSet: (scope: 'keyed', names: readonly string[]) => SizeKind,
  subtask: number,
  bytes: number,
  how: 'whole-handle' | 'rocksdb' | 'changelog',
): void {
  if (held.length === 1) {
    parts.add(
      `keyed\u0000${held[0]!}`,
      { label: held[0]!, states: [...held], scope: 'keyed', kind: kindOfSet('keyed', held), attribution: 'whole-handle' },
      subtask,
      bytes,
    );
    return;
  }
  const what = how === 'rocksdb' ? `${prefix === 'keyed state' ? '' : 'raw '}RocksDB files` : how === 'changelog' ? `${prefix} changelog` : prefix;
  const label = held.length === 0 ? what : `${what} of ${held.length} states (shared)`;
  parts.add(
    `${prefix}\u0000shared\u0000${held.join('\u0000')}${what}`,
    { label, states: [...held], scope: 'keyed', kind: kindOfSet('keyed', held), attribution: 'shared' },
    subtask,
    bytes,
  );
}

function describeKeyGroups(ids: readonly number[], bytes: readonly number[]): KeyGroupSizes | undefined {
  if (ids.length === 0) return undefined;
  let largest = 0;
  for (let i = 1; i < ids.length; i++) if (bytes[i]! > bytes[largest]! || (bytes[i] === bytes[largest] && ids[i]! < ids[largest]!)) largest = i;
  const median = medianOf(bytes);
  return { withData: ids.length, largest: { keyGroup: ids[largest]!, bytes: bytes[largest]! }, median, skew: median > 0 ? bytes[largest]! / median : 1 };
}

/** The median of some numbers (the mean of the middle two for an even count). */
export function medianOf(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const MAX_DEPTH = 16;

/** A stream handle's bytes as `_metadata` records them (a size it does not record counts 0). */
function handleBytes(h: StreamHandle, depth = 0): number {
  switch (h.kind) {
    case 'inline':
    case 'relative-file':
    case 'file':
    case 'segment-file':
      return Math.max(h.size, 0);
    case 'legacy-key-groups':
      return h.delegate && depth < MAX_DEPTH ? handleBytes(h.delegate, depth + 1) : 0;
    case 'empty-segment':
      return 0;
  }
}

function keyedHandleBytes(h: KeyedStateHandle, depth: number): number {
  if (depth > MAX_DEPTH) return 0;
  if (h.kind === 'key-groups') return h.delegate ? handleBytes(h.delegate) : 0;
  const sum = (list: readonly { handle: StreamHandle | null }[]) => list.reduce((s, f) => s + (f.handle ? handleBytes(f.handle) : 0), 0);
  if (h.kind === 'incremental') return (h.metaData ? handleBytes(h.metaData) : 0) + sum(h.sharedFiles) + sum(h.privateFiles);
  return sum(h.files ?? []) + h.nested.reduce((s, n) => s + keyedHandleBytes(n, depth + 1), 0);
}
