/**
 * The one state scan: every path that reads state values (inspect's counts, `dump`, `stats` and its
 * worker threads, `check`'s value warnings, the app's statistics and pages) walks entries here and
 * hands each one to a visitor, with its value read in the scan's value mode (ValueMode):
 * - `decode`: values decoded in full;
 * - `frame`: Protobuf values (and any codec that frames its values) located, not decoded: the visitor
 *   finds them as ValueFrame values inside the entry's value (listValueFrames). With `visitor.row`, a
 *   canonical keyed row whose key checks in place and whose value is one framed value is handed over
 *   without an entry object at all (the frame points into the read buffer);
 * - `skip`: such values stepped over.
 * The mode is looked up as each value is read, so a visitor may switch it between entries.
 *
 * Order: operators (one, `units`, or all in `_metadata` order), subtasks by index; in each subtask the
 * operator state, then the keyed state key group by key group (block order).
 */
import { DecodeError, isDecodeError, wrongInput } from '../../io';
import { throwIfCancelled } from '../cancel-signal';
import { isWantedState } from '../is-wanted-state';
import { computeOperatorId } from '../metadata/compute-operator-id';
import type { OperatorState, SubtaskState } from '../metadata/metadata-types';
import { KeyedEntryRun } from '../keyed/keyed-entry-run';
import { KeyedReadBuffers } from '../keyed/keyed-read-buffers';
import { checkStateSample } from '../keyed/sample-keyed-stream';
import type { OpenedSavepoint } from '../savepoint/open-savepoint';
import type { StateEntry, StateScope } from '../savepoint/inspection-types';
import type { SnapshotRegistry, ValueCodec, ValueFrame } from '../snapshots/snapshot-types';
import type { ScanPart, StateScanOptions, StateScanResult, StateScanSelection, StateScanVisitor } from './scan-types';
import { readKeyedParts } from './sources/keyed';
import { readOperatorParts } from './sources/operator';
import { isEntryBatch, type ReadablePart, type ScanContext, type SourcePart } from './sources/scan-context';

export type { ScanPart, StateScanOptions, StateScanResult, StateScanSelection, StateScanVisitor, SubtaskHeaderCache } from './scan-types';
export { createSubtaskHeaderCache } from './sources/scan-context';

/** Finds an operator by id, stored uid, or uid hashed to an id. */
export function findOperator(opened: OpenedSavepoint, idOrUid: string): OperatorState | undefined {
  const ops = opened.metadata.operators;
  const lower = idOrUid.toLowerCase();
  return ops.find((o) => o.id === lower) ?? ops.find((o) => o.uid === idOrUid) ?? ops.find((o) => o.id === computeOperatorId(idOrUid));
}

export async function scanState(
  opened: OpenedSavepoint,
  registry: SnapshotRegistry,
  selection: StateScanSelection,
  visitor: StateScanVisitor,
  options: StateScanOptions,
): Promise<StateScanResult> {
  const result: StateScanResult = { keyGroupsWithData: 0, keyGroupsRead: 0 };
  const sample = selection.sample;
  if (sample) checkStateSample(sample);
  const cap = Math.min(selection.limit ?? Infinity, sample?.kind === 'first-entries' ? sample.count : Infinity);
  if (cap <= 0) return result;
  const names: string | ReadonlySet<string> | undefined =
    selection.states === undefined ? undefined : typeof selection.states === 'string' ? selection.states : new Set(selection.states);
  const wanted = (name: string): boolean => names === undefined || isWantedState(names, name);
  const signal = options.signal;
  const values = options.values;
  // entries taken per state (operator, scope, name), for the cap
  const taken = new Map<string, number>();
  const capped = cap !== Infinity;
  const selectedStates = names === undefined ? undefined : typeof names === 'string' ? [names] : [...names];
  let stopped = false;
  // the frame of each row read in place (walkFramedRows), made at the first such run
  let scratchFrame: ValueFrame | undefined;
  /** every selected state has its `cap` entries (a scan of named states then stops at once) */
  const selectionFull = (operatorId: string): boolean =>
    capped && selectedStates !== undefined && selectedStates.every((n) => SCOPES.some((scope) => (taken.get(slotKey(operatorId, scope, n)) ?? 0) >= cap));
  /** every wanted state of the part has its `cap` entries */
  const isFull = (slots: PartSlots): boolean => capped && slots.keys.length > 0 && slots.keys.every((k) => (taken.get(k) ?? 0) >= cap);

  const scopes = new Set(selection.scopes ?? ['operator', 'keyed']);
  // a key-group shard: operator state read by one shard only (by default the one of key group 0), keyed streams of the subtasks it meets
  const range = selection.keyGroupRange;
  if (range !== undefined) checkKeyGroupRange(range);
  if (range !== undefined && !(selection.operatorState ?? range.start === 0)) scopes.delete('operator');
  const ctx: ScanContext = {
    opened,
    registry,
    values,
    signal,
    headers: options.headers,
    // one set for every keyed stream of the scan (read one after the other)
    readBuffers: options.reuseReadBuffers === true ? new KeyedReadBuffers() : undefined,
    names,
    wanted,
    sample,
    keyGroups: selection.keyGroups === undefined ? undefined : new Set(selection.keyGroups),
    keyGroupRange: range,
    capped,
    isPartFull: (part) => capped && isFull(slotsOf(part)),
    result,
  };

  for (const [op, subtask] of listStateScanUnits(opened, selection)) {
    throwIfCancelled(signal);
    const hasOperatorState = scopes.has('operator') && (names === undefined || subtask.managedOperatorState?.states.some((s) => wanted(s.name)) === true);
    if (hasOperatorState) {
      await visitParts(readOperatorParts(ctx, op, subtask, selection.broadcastCopies === 'counted'), op, subtask, 'operator');
      if (stopped || selectionFull(op.id)) return result;
    }
    if (!scopes.has('keyed')) continue;
    if (range !== undefined && !meetsKeyGroupRange(subtask, range)) continue;
    await visitParts(readKeyedParts(ctx, op, subtask), op, subtask, 'keyed');
    if (stopped || selectionFull(op.id)) return result;
  }
  return result;

  /** The parts of one stream of a subtask, in order; a failure of the stream goes to the visitor (streamError) or is thrown. */
  async function visitParts(parts: AsyncIterable<SourcePart>, op: OperatorState, subtask: SubtaskState, kind: 'operator' | 'keyed'): Promise<void> {
    try {
      for await (const p of parts) {
        if ('unreadable' in p) {
          if (!visitor.unreadable) throw p.error();
          visitor.unreadable(p.part, p.unreadable);
          continue;
        }
        await visitPart(p);
        if (stopped) break;
      }
    } catch (e) {
      handle(e, op, subtask, kind);
    }
  }

  /** The one loop: each run of the part's source admitted against the cap and visited, then drained. */
  async function visitPart(p: ReadablePart): Promise<void> {
    const part = p.part;
    visitor.part?.(part);
    const slots = slotsOf(part);
    if (p.unlessFull === true && isFull(slots)) return;
    for await (const run of p.runs) {
      let go: Admission;
      if (run instanceof KeyedEntryRun) go = visitRun(run, part, slots);
      else if (isEntryBatch(run)) go = visitBatch(run, part, slots);
      else {
        go = admit(run.state, slots);
        if (go === SKIP) continue;
        if (go !== END_PART && visitor.entry(run, part) === false) go = LAST;
      }
      if (go === END_PART) break;
      if (go === LAST) {
        stopped = true;
        break;
      }
      if (visitor.drain) await drain();
    }
    p.done?.();
  }

  /** The cap's slots of the part's wanted states. */
  function slotsOf(part: ScanPart): PartSlots {
    const operatorId = part.operator.id;
    const scope = part.kind === 'operator' ? 'operator' : 'keyed';
    const keys = capped
      ? [
          ...part.states.filter(wanted).map((n) => slotKey(operatorId, scope, n)),
          ...part.broadcastStates.filter(wanted).map((n) => slotKey(operatorId, 'broadcast', n)),
        ]
      : [];
    return { operatorId, scope, broadcast: part.broadcastStates.length > 0 ? new Set(part.broadcastStates) : undefined, keys };
  }

  /** Waits for the visitor's consumer when it asks to (StateScanVisitor.drain). */
  async function drain(): Promise<void> {
    const waiting = visitor.drain?.();
    if (waiting !== undefined) await waiting;
  }

  /** Counts one entry of a state against the cap: visit it (GO, or LAST when it fills the selection), SKIP it, or END_PART (every state of the part is full). */
  function admit(state: string, slots: PartSlots): Admission {
    if (!capped) return GO;
    const k = slotKey(slots.operatorId, slots.broadcast?.has(state) === true ? 'broadcast' : slots.scope, state);
    const n = taken.get(k) ?? 0;
    if (n >= cap) return slots.keys.every((s) => (taken.get(s) ?? 0) >= cap) ? END_PART : SKIP;
    taken.set(k, n + 1);
    return selectionFull(slots.operatorId) ? LAST : GO;
  }

  /** A batch of decoded entries. */
  function visitBatch(run: readonly StateEntry[], part: ScanPart, slots: PartSlots): Admission {
    for (let i = 0; i < run.length; i++) {
      const e = run[i]!;
      const go = admit(e.state, slots);
      if (go === SKIP) continue;
      if (go === END_PART) return END_PART;
      if (visitor.entry(e, part) === false || go === LAST) return LAST;
    }
    return GO;
  }

  /** The run's wanted rows: in place where the visitor takes rows and the mode is `frame`, else decoded. */
  function visitRun(run: KeyedEntryRun, part: ScanPart, slots: PartSlots): Admission {
    const inPlace = visitor.row !== undefined && values.mode === 'frame';
    if (!inPlace) {
      for (const e of run) {
        const go = admit(e.state, slots);
        if (go === SKIP) continue;
        if (go === END_PART) return END_PART;
        if (visitor.entry(e, part) === false || go === LAST) return LAST;
      }
      return GO;
    }
    let outcome: Admission = GO;
    scratchFrame ??= createScratchFrame();
    walkFramedRows(
      run,
      (e) => {
        const go = admit(e.state, slots);
        if (go === SKIP) return true;
        if (go === END_PART || visitor.entry(e, part) === false || go === LAST) {
          outcome = go === END_PART ? END_PART : LAST;
          return false;
        }
        return true;
      },
      (i, frame) => {
        const go = admit(run.stateOf(i), slots);
        if (go === SKIP) return true;
        if (go === END_PART) {
          outcome = END_PART;
          return false;
        }
        if (visitor.row!(run, i, frame, part) === false || go === LAST) {
          outcome = LAST;
          return false;
        }
        return true;
      },
      scratchFrame,
    );
    return outcome;
  }

  function handle(e: unknown, op: OperatorState, subtask: SubtaskState, kind: 'operator' | 'keyed'): void {
    if (!isDecodeError(e) || e.code === 'cancelled' || !visitor.streamError) throw e;
    visitor.streamError(e, { operator: op, subtask: subtask.index, kind });
  }
}

/** A part's slots of the cap: its wanted states' keys (slotKey), and each entry's scope. */
interface PartSlots {
  operatorId: string;
  scope: 'operator' | 'keyed';
  /** an operator part's broadcast states (their entries' scope is `broadcast`) */
  broadcast: ReadonlySet<string> | undefined;
  /** empty when the scan is not capped */
  keys: readonly string[];
}

const SCOPES: readonly StateScope[] = ['operator', 'broadcast', 'keyed'];
const GO = 0;
const SKIP = 1;
const END_PART = 2;
const LAST = 3;
type Admission = typeof GO | typeof SKIP | typeof END_PART | typeof LAST;

function slotKey(operatorId: string, scope: string, state: string): string {
  return `${operatorId}\u0000${scope}\u0000${state}`;
}

/**
 * A run of a `frame` read without an entry object where it can be: a row whose key surely decodes
 * (KeyedEntryRun.checkRowKey) and whose value is one value of a codec with frameInPlace goes to `onRow`
 * with its frame (`frame`, a scratch object the caller may reuse across runs: valid during the call;
 * undefined where frameInPlace refused the bytes); every other row is decoded and goes to `onEntry`.
 * Either returns false to stop (then this returns false). Same rows, order and errors as iterating the run.
 */
export function walkFramedRows(
  run: KeyedEntryRun,
  onEntry: (e: StateEntry) => boolean | void,
  onRow: (i: number, frame: ValueFrame | undefined) => boolean | void,
  frame: ValueFrame = createScratchFrame(),
): boolean {
  try {
    return run.walkRows(framingCodec, onEntry, (i, codec) => {
      const start = run.valueStart(i);
      if (!codec.frameInPlace!(run.bytes, start, run.valueEnd(i), frame)) return onRow(i, undefined);
      frame.offset = run.baseOffset + start;
      frame.file = run.file;
      return onRow(i, frame);
    });
  } finally {
    // the scratch frame must not keep a read buffer alive
    frame.bytes = EMPTY;
  }
}

/** The codec of a row's single value when it reads values in place (ValueCodec.frameInPlace). */
function framingCodec(codec: ValueCodec | undefined): ValueCodec | undefined {
  return codec?.frameInPlace === undefined ? undefined : codec;
}

/** The (operator, subtask) pairs of the selection, in scan order (a DecodeError names the operators when `operatorId` matches none). */
export function listStateScanUnits(opened: OpenedSavepoint, selection: StateScanSelection): [OperatorState, SubtaskState][] {
  const only = selection.subtasks === undefined ? undefined : new Set(selection.subtasks);
  const bySubtask = (a: SubtaskState, b: SubtaskState) => a.index - b.index;
  if (selection.units !== undefined) {
    const out: [OperatorState, SubtaskState][] = [];
    for (const unit of selection.units) {
      const op = opened.metadata.operators.find((o) => o.id === unit.operatorId);
      const subtask = op?.subtasks.find((s) => s.index === unit.subtask);
      if (op && subtask && (only === undefined || only.has(subtask.index))) out.push([op, subtask]);
    }
    return out;
  }
  let ops = opened.metadata.operators;
  if (selection.operatorId !== undefined) {
    const op = findOperator(opened, selection.operatorId);
    if (!op)
      throw wrongInput(
        'not-found',
        `expected an operator id or uid of this savepoint, found ${selection.operatorId} (operators: ${ops.map((o) => o.id).join(', ')})`,
      );
    ops = [op];
  }
  return ops.flatMap((op) =>
    [...op.subtasks]
      .filter((s) => only === undefined || only.has(s.index))
      .sort(bySubtask)
      .map((s): [OperatorState, SubtaskState] => [op, s]),
  );
}

const EMPTY = new Uint8Array(0);

function checkKeyGroupRange(range: { start: number; end: number }): void {
  if (!Number.isSafeInteger(range.start) || !Number.isSafeInteger(range.end) || range.start < 0 || range.end < range.start)
    throw new DecodeError({ code: 'invalid-value', detail: `expected a key-group range A-B with 0 <= A <= B, found ${range.start}-${range.end}` });
}

/** Whether the subtask's keyed state (its managed keyed handle's key-group range) meets the shard: a subtask that does not is not opened. */
export function meetsKeyGroupRange(subtask: SubtaskState, range: { start: number; end: number }): boolean {
  const own = subtask.managedKeyedState?.range;
  return own !== undefined && own.end >= own.start && own.start <= range.end && own.end >= range.start;
}

/** The frame walkFramedRows fills for each row read in place (one per scan). */
function createScratchFrame(): ValueFrame {
  return {
    kind: 'frame',
    format: '',
    codec: { decode: () => ({ kind: 'null' }) },
    bytes: EMPTY,
    start: 0,
    payloadStart: 0,
    end: 0,
    length: 0,
    offset: 0,
    file: undefined,
  };
}
