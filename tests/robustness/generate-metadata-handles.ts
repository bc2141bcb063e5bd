/**
 * A structure-aware generator of hostile `_metadata` state handles, working on the decoded model
 * (readCheckpointMetadata → change → writeCheckpointMetadata, the trailer kept): it knows every
 * number a handle holds (stream handle sizes, segment starts, key-group offsets, operator state
 * element offsets) and plants seeded faults in them:
 *
 * - `huge`: values near 2^53 (and 2^31, 2^32, the file size ± 1) in 1–3 of those numbers, after
 *   turning some relative-file handles into segment-file or absolute-path handles of the same file;
 * - `repeated-operator-offsets`: an element offset repeated (2 to 100,000 times, or one another
 *   state of the handle already uses);
 * - `repeated-key-group-offsets`: non-zero key-group offsets copied onto other key groups, the
 *   range widened up to 32,768 key groups.
 */
import { writeCheckpointMetadata } from '../../src/core/flink/metadata/write-checkpoint-metadata';
import type { CheckpointMetadata, KeyedStateHandle, OperatorState, OperatorStateHandle, StreamHandle } from '../../src/core/flink/metadata/metadata-types';
import type { SeededRandom } from './seeded-random';

export const HANDLE_FAULTS = ['huge', 'repeated-operator-offsets', 'repeated-key-group-offsets'] as const;
export type HandleFault = (typeof HANDLE_FAULTS)[number];

interface Slot {
  label: string;
  get(): number;
  set(v: number): void;
}

const TWO_53 = 2 ** 53;

/** A deep copy of the model (Uint8Array data of inline handles kept as they are). */
function cloneModel(m: CheckpointMetadata): CheckpointMetadata {
  return structuredClone(m);
}

function streamSlots(h: StreamHandle | null, where: string, out: Slot[]): void {
  if (h === null) return;
  if (h.kind === 'relative-file' || h.kind === 'file') out.push({ label: `${where} size`, get: () => h.size, set: (v) => (h.size = v) });
  if (h.kind === 'segment-file') {
    out.push({ label: `${where} segment start`, get: () => h.start, set: (v) => (h.start = v) });
    out.push({ label: `${where} segment size`, get: () => h.size, set: (v) => (h.size = v) });
  }
  if (h.kind === 'legacy-key-groups') streamSlots(h.delegate, `${where} delegate`, out);
}

function keyedSlots(h: KeyedStateHandle | null, where: string, out: Slot[]): void {
  if (h === null || h.kind !== 'key-groups') return;
  h.offsets.forEach((_, i) => out.push({ label: `${where} key group ${h.range.start + i} offset`, get: () => h.offsets[i]!, set: (v) => (h.offsets[i] = v) }));
  streamSlots(h.delegate, `${where} data`, out);
}

function operatorSlots(h: OperatorStateHandle | null, where: string, out: Slot[]): void {
  if (h === null) return;
  for (const s of h.states)
    s.offsets.forEach((_, i) => out.push({ label: `${where} state ${s.name} element ${i} offset`, get: () => s.offsets[i]!, set: (v) => (s.offsets[i] = v) }));
  streamSlots(h.delegate, `${where} data`, out);
}

/** Some relative-file handles become a segment of the same file, or an absolute path to it (resolved by base name). */
function varyStreamKinds(m: CheckpointMetadata, rnd: SeededRandom): void {
  const convert = (h: StreamHandle | null): StreamHandle | null => {
    if (h === null || h.kind !== 'relative-file' || rnd.int(4) !== 0) return h;
    return rnd.int(2) === 0
      ? { kind: 'segment-file', physicalPath: `s3://bucket/sp/${h.relativePath}`, logicalFileId: 'fuzz', start: 0, size: h.size, scope: 'EXCLUSIVE' }
      : { kind: 'file', path: `s3://bucket/sp/${h.relativePath}`, size: h.size };
  };
  for (const op of m.operators) {
    for (const s of op.subtasks) {
      for (const h of [s.managedKeyedState, s.rawKeyedState]) if (h?.kind === 'key-groups') h.delegate = convert(h.delegate);
      for (const h of [s.managedOperatorState, s.rawOperatorState]) if (h && h.code === 4) h.delegate = convert(h.delegate);
    }
  }
}

function hugeValue(rnd: SeededRandom, current: number): number {
  switch (rnd.int(6)) {
    case 0:
      return TWO_53 - 1;
    case 1:
      return TWO_53 - 1 - rnd.int(1 << 20);
    case 2:
      return 2 ** 32 + rnd.int(1000);
    case 3:
      return 2 ** 31 - 1;
    case 4:
      return current + 1 + rnd.int(3);
    default:
      return Math.max(0, TWO_53 - 1 - current);
  }
}

/**
 * One hostile `_metadata`: the model with `fault` planted, written with `trailer`. `label` says
 * what was changed, for the case name. Undefined when the model has no place for this fault.
 */
export function generateHostileHandles(
  model: CheckpointMetadata,
  trailer: Uint8Array | undefined,
  fault: HandleFault,
  rnd: SeededRandom,
): { bytes: Uint8Array; label: string } | undefined {
  const m = cloneModel(model);
  const labels: string[] = [];
  if (fault === 'huge') {
    varyStreamKinds(m, rnd);
    const slots: Slot[] = [];
    for (const op of m.operators) {
      for (const s of op.subtasks) {
        const where = `${op.id.slice(0, 8)}/${s.index}`;
        keyedSlots(s.managedKeyedState, `${where} keyed`, slots);
        operatorSlots(s.managedOperatorState, `${where} operator`, slots);
      }
    }
    if (slots.length === 0) return undefined;
    for (let k = 1 + rnd.int(3); k > 0; k--) {
      const slot = slots[rnd.int(slots.length)]!;
      const v = hugeValue(rnd, slot.get());
      slot.set(v);
      labels.push(`${slot.label} = ${v}`);
    }
  } else if (fault === 'repeated-operator-offsets') {
    const handles = m.operators.flatMap((op) =>
      op.subtasks.flatMap((s) =>
        s.managedOperatorState && s.managedOperatorState.states.some((e) => e.offsets.length > 0) ? [{ op, h: s.managedOperatorState }] : [],
      ),
    );
    if (handles.length === 0) return undefined;
    const { op, h } = handles[rnd.int(handles.length)]!;
    const withOffsets = h.states.filter((e) => e.offsets.length > 0);
    const state = withOffsets[rnd.int(withOffsets.length)]!;
    if (rnd.int(3) === 0 && h.states.length > 1) {
      // another state of the handle names an offset this one already uses
      const other = h.states.find((e) => e !== state)!;
      other.offsets = [...other.offsets, state.offsets[rnd.int(state.offsets.length)]!];
      labels.push(`${op.id.slice(0, 8)} state ${other.name} repeats an offset of ${state.name}`);
    } else {
      const n = [2, 3, 17, 1000, 100_000][rnd.int(5)]!;
      state.offsets = new Array<number>(n).fill(state.offsets[rnd.int(state.offsets.length)]!);
      labels.push(`${op.id.slice(0, 8)} state ${state.name}: one offset ${n} times`);
    }
  } else {
    const handles = m.operators.flatMap((op) =>
      op.subtasks.flatMap((s) =>
        s.managedKeyedState?.kind === 'key-groups' && s.managedKeyedState.offsets.some((o) => o !== 0) ? [{ op, h: s.managedKeyedState }] : [],
      ),
    );
    if (handles.length === 0) return undefined;
    const { op, h } = handles[rnd.int(handles.length)]!;
    if (h.kind !== 'key-groups') return undefined;
    const nonZero = h.offsets.filter((o) => o !== 0);
    const repeated = nonZero[rnd.int(nonZero.length)]!;
    if (rnd.int(2) === 0) {
      // the whole key-group space, every key group at one offset
      op.maxParallelism = 32768;
      h.range = { start: 0, end: 32767 };
      h.offsets = new Array<number>(32768).fill(repeated);
      labels.push(`${op.id.slice(0, 8)}: 32768 key groups at offset ${repeated}`);
    } else {
      const i = rnd.int(h.offsets.length);
      const j = h.offsets.indexOf(repeated);
      h.offsets[i === j ? (i + 1) % h.offsets.length : i] = repeated;
      if (h.offsets.length === 1) return undefined;
      labels.push(`${op.id.slice(0, 8)}: key group offset ${repeated} twice`);
    }
  }
  const bytes = writeCheckpointMetadata({
    version: m.version,
    checkpointId: m.checkpointId,
    masterStates: m.masterStates,
    operators: m.operators,
    ...(trailer ? { trailer } : {}),
  });
  return { bytes, label: `${fault}: ${labels.join('; ')}` };
}

export const DUPLICATIONS = ['operator', 'state-list', 'copied-keyed-handle', 'copied-operator-handle'] as const;
export type Duplication = (typeof DUPLICATIONS)[number];

/**
 * One `_metadata` that holds a structure twice: an operator listed again (anywhere after it), a
 * state listed twice in one operator state handle (its elements split between the two lists), or
 * a subtask's keyed or operator state handle replaced by a copy of another subtask's. Undefined
 * when the model has no place for it.
 */
export function generateDuplicatedStructures(
  model: CheckpointMetadata,
  trailer: Uint8Array | undefined,
  kind: Duplication,
  rnd: SeededRandom,
): { bytes: Uint8Array; label: string } | undefined {
  const m = cloneModel(model);
  let label: string;
  const fits = (op: OperatorState): boolean => {
    if (op.subtasks.length < 2) return false;
    if (kind === 'state-list') return op.subtasks.some((s) => s.managedOperatorState?.states.some((e) => e.offsets.length > 1));
    const keyed = op.subtasks.some((s) => s.managedKeyedState?.kind === 'key-groups' && s.managedKeyedState.offsets.some((o) => o !== 0));
    if (kind === 'copied-keyed-handle') return keyed;
    return keyed || op.subtasks.some((s) => s.managedOperatorState?.states.some((e) => e.offsets.length > 0));
  };
  const withState = m.operators.filter(fits);
  if (withState.length === 0) return undefined;
  const op = withState[rnd.int(withState.length)]!;
  if (kind === 'operator') {
    const at = m.operators.indexOf(op) + 1 + rnd.int(m.operators.length - m.operators.indexOf(op));
    m.operators.splice(at, 0, structuredClone(op));
    label = `operator ${op.id.slice(0, 8)} listed again at #${at}`;
  } else if (kind === 'state-list') {
    const handles = op.subtasks.flatMap((s) => (s.managedOperatorState?.states.some((e) => e.offsets.length > 1) ? [s.managedOperatorState] : []));
    if (handles.length === 0) return undefined;
    const h = handles[rnd.int(handles.length)]!;
    const lists = h.states.filter((e) => e.offsets.length > 1);
    const e = lists[rnd.int(lists.length)]!;
    const cut = 1 + rnd.int(e.offsets.length - 1);
    const second = { ...e, offsets: e.offsets.slice(cut) };
    e.offsets = e.offsets.slice(0, cut);
    h.states.splice(h.states.indexOf(e) + 1 + rnd.int(h.states.length - h.states.indexOf(e)), 0, second);
    label = `${op.id.slice(0, 8)}: state ${e.name} listed twice (${cut} + ${second.offsets.length} elements)`;
  } else {
    const slot =
      kind === 'copied-keyed-handle'
        ? 'managedKeyedState'
        : op.subtasks.some((s) => s.managedOperatorState?.states.some((e) => e.offsets.length > 0))
          ? 'managedOperatorState'
          : 'managedKeyedState';
    // a handle that reads data (a copy of one that reads nothing could not be counted twice)
    const readsData = (h: KeyedStateHandle | OperatorStateHandle | null) =>
      h !== null && (h.kind === 'key-groups' ? h.offsets.some((o) => o !== 0) : h.kind === 'operator' ? h.states.some((e) => e.offsets.length > 0) : false);
    const sources = op.subtasks.filter((s) => readsData(s[slot]));
    if (sources.length === 0) return undefined;
    const from = sources[rnd.int(sources.length)]!;
    const to = op.subtasks.filter((s) => s !== from)[rnd.int(op.subtasks.length - 1)]!;
    (to as Record<typeof slot, unknown>)[slot] = structuredClone(from[slot]);
    label = `${op.id.slice(0, 8)}: subtask ${to.index}'s ${slot} replaced by a copy of subtask ${from.index}'s`;
  }
  const bytes = writeCheckpointMetadata({
    version: m.version,
    checkpointId: m.checkpointId,
    masterStates: m.masterStates,
    operators: m.operators,
    ...(trailer ? { trailer } : {}),
  });
  return { bytes, label: `${kind}: ${label}` };
}
