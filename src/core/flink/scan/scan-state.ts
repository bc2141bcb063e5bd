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
import { throwIfCancelled, type CancelSignal } from '../cancel-signal';
import { isWantedState } from '../is-wanted-state';
import { computeOperatorId } from '../metadata/compute-operator-id';
import type { OperatorState, SubtaskState } from '../metadata/metadata-types';
import { readSubtaskKeyedStream, readSubtaskOperatorStream, type ChangelogReplay, type KeyedStreamFormat, type SubtaskKeyedStream, type SubtaskOperatorStream } from '../headers/read-subtask-state-headers';
import { decodeChangelogChanges } from '../keyed/decode-changelog-changes';
import { replayChangelogEntries } from '../keyed/replay-changelog-entries';
import type { KeyedStreamInput } from '../keyed/keyed-stream-types';
import type { KeyedEntryRun } from '../keyed/keyed-entry-run';
import { KeyedReadBuffers } from '../keyed/keyed-read-buffers';
import { readCanonicalKeyedEntryRuns } from '../keyed/read-canonical-keyed-entries';
import { readHeapKeyedEntries } from '../keyed/read-heap-keyed-entries';
import { checkStateSample, listSampledKeyedInputs, narrowKeyedInputToKeyGroup, type StateSample } from '../keyed/sample-keyed-stream';
import { readOperatorStateEntries } from '../operator/read-operator-state-entries';
import { readCountedOperatorStateEntries } from '../operator/select-broadcast-copy';
import type { OpenedSavepoint } from '../savepoint/open-savepoint';
import { openRocksDbSnapshot, type RocksDbSnapshot } from '../rocksdb/open-rocksdb-snapshot';
import { readRocksDbKeyedEntries } from '../rocksdb/read-rocksdb-keyed-entries';
import type { StateEntry, StateScope } from '../savepoint/inspection-types';
import type { SnapshotRegistry, ValueCodec, ValueFrame, ValueModeSource } from '../snapshots/snapshot-types';

export interface StateScanSelection {
  /** one operator: 32-hex id or uid (findOperator; a DecodeError names the operators when none matches); default every operator */
  operatorId?: string;
  /** instead: these (operator id, subtask) pairs in this order (a worker thread's share); pairs not in `_metadata` are passed over */
  units?: readonly { operatorId: string; subtask: number }[];
  /** the states to read (default every state) */
  states?: string | readonly string[];
  /** only these subtasks (by index) */
  subtasks?: readonly number[];
  /** every n-th key group, or the first N entries of each state */
  sample?: StateSample;
  /** at most this many entries of each state (with a first-entries sample, the smaller of the two) */
  limit?: number;
  /** broadcast states: every subtask's copy (default), or only the copy statistics count (isCountedBroadcastCopy) */
  broadcastCopies?: 'every' | 'counted';
  /** operator state, keyed state, or both (default) */
  scopes?: readonly ('operator' | 'keyed')[];
  /** only these key groups of the keyed streams (each read with exactly its block's byte range) */
  keyGroups?: readonly number[];
}

/**
 * The subtasks' stream headers, read once for several scans of one savepoint (a session's page reads),
 * and each RocksDB native subtask's snapshot (its MANIFEST replayed, its tables' footers, properties and
 * range deletions): a failed read is not kept. The savepoint's byte sources must then be the same for
 * every scan.
 */
export interface SubtaskHeaderCache {
  operator: Map<string, Promise<SubtaskOperatorStream | undefined>>;
  keyed: Map<string, Promise<SubtaskKeyedStream | undefined>>;
  rocksdb: Map<string, Promise<RocksDbSnapshot>>;
}

export function createSubtaskHeaderCache(): SubtaskHeaderCache {
  return { operator: new Map(), keyed: new Map(), rocksdb: new Map() };
}

/** One stream of a subtask as the visitor sees it. */
export interface ScanPart {
  operator: OperatorState;
  subtask: number;
  kind: 'operator' | 'keyed';
  /** operator state, or the keyed stream's format */
  format: 'operator' | KeyedStreamFormat;
  /** the states its header names (operator parts: list and union states, then `broadcastStates`) */
  states: readonly string[];
  broadcastStates: readonly string[];
  /** set when the part's entries are read but are not the whole of its states: why (a changelog's changes after the materialized snapshot) */
  incomplete?: string;
}

export interface StateScanVisitor {
  /** a part begins, before its entries (also a part whose states are all capped already) */
  part?(part: ScanPart): void;
  /** one entry in read order; false stops the whole scan */
  entry(e: StateEntry, part: ScanPart): boolean | void;
  /**
   * `frame` scans only: a canonical keyed row whose key surely decodes (KeyedEntryRun.checkRowKey) and
   * whose value is one value of a codec with frameInPlace, without decoding it: `frame` is filled (a
   * scratch object: use it before returning) or undefined where frameInPlace refused the bytes. Without
   * this hook every row is decoded and goes to `entry`. False stops the whole scan.
   */
  row?(run: KeyedEntryRun, i: number, frame: ValueFrame | undefined, part: ScanPart): boolean | void;
  /** a stream could not be read: with this hook the error is handed over and the scan goes on with the next stream; without it the scan throws it */
  streamError?(error: DecodeError, where: { operator: OperatorState; subtask: number; kind: 'operator' | 'keyed' }): void;
  /** keyed state whose values are not readable here (a RocksDB native handle without meta data, a state only a changelog names): with this hook it is reported, without it the scan throws unsupported-format */
  unreadable?(part: ScanPart, reason: string): void;
  /**
   * Back pressure: called after the entries of each read (a run of a read window, a batch of RocksDB
   * entries, an entry of a heap or operator stream); a returned promise is awaited before the scan
   * reads on, so a visitor whose consumer is slower than the scan (a slow sink) holds at most one
   * read's entries.
   */
  drain?(): Promise<void> | void;
}

export interface StateScanOptions {
  /** the value mode, looked up as each value is read */
  values: ValueModeSource;
  signal?: CancelSignal;
  /** read every canonical keyed stream into one set of reused buffers (a scan that keeps no entry past its visit): fewer allocations, and the next window is read ahead */
  reuseReadBuffers?: boolean;
  /** stream headers remembered across scans (default: read for this scan) */
  headers?: SubtaskHeaderCache;
}

export interface StateScanResult {
  /** key groups with data in the keyed streams visited, and how many of them were read (under a key-group sample, fewer) */
  keyGroupsWithData: number;
  keyGroupsRead: number;
}

/** Finds an operator by id, stored uid, or uid hashed to an id. */
export function findOperator(opened: OpenedSavepoint, idOrUid: string): OperatorState | undefined {
  const ops = opened.metadata.operators;
  const lower = idOrUid.toLowerCase();
  return ops.find((o) => o.id === lower) ?? ops.find((o) => o.uid === idOrUid) ?? ops.find((o) => o.id === computeOperatorId(idOrUid));
}

export async function scanState(opened: OpenedSavepoint, registry: SnapshotRegistry, selection: StateScanSelection, visitor: StateScanVisitor, options: StateScanOptions): Promise<StateScanResult> {
  const result: StateScanResult = { keyGroupsWithData: 0, keyGroupsRead: 0 };
  const sample = selection.sample;
  if (sample) checkStateSample(sample);
  const cap = Math.min(selection.limit ?? Infinity, sample?.kind === 'first-entries' ? sample.count : Infinity);
  if (cap <= 0) return result;
  const names: string | ReadonlySet<string> | undefined = selection.states === undefined ? undefined : typeof selection.states === 'string' ? selection.states : new Set(selection.states);
  const wanted = (name: string): boolean => names === undefined || isWantedState(names, name);
  const signal = options.signal;
  const values = options.values;
  // entries taken per state (operator, scope, name), for the cap
  const taken = new Map<string, number>();
  const capped = cap !== Infinity;
  const selectedStates = names === undefined ? undefined : typeof names === 'string' ? [names] : [...names];
  let stopped = false;
  /** every selected state has its `cap` entries (a scan of named states then stops at once) */
  const selectionFull = (operatorId: string): boolean =>
    capped && selectedStates !== undefined && selectedStates.every((n) => SCOPES.some((scope) => (taken.get(slotKey(operatorId, scope, n)) ?? 0) >= cap));

  const scopes = new Set(selection.scopes ?? ['operator', 'keyed']);
  const headers = options.headers;
  // one set for every keyed stream of the scan (read one after the other)
  const readBuffers = options.reuseReadBuffers === true ? new KeyedReadBuffers() : undefined;
  const operatorStream = (op: OperatorState, subtask: SubtaskState) =>
    headers === undefined ? readSubtaskOperatorStream(opened, op, subtask, registry) : remember(headers.operator, `${op.id}\u0000${subtask.index}`, () => readSubtaskOperatorStream(opened, op, subtask, registry));
  const keyedStream = (op: OperatorState, subtask: SubtaskState) =>
    headers === undefined ? readSubtaskKeyedStream(opened, op, subtask, registry) : remember(headers.keyed, `${op.id}\u0000${subtask.index}`, () => readSubtaskKeyedStream(opened, op, subtask, registry));

  for (const [op, subtask] of listStateScanUnits(opened, selection)) {
    throwIfCancelled(signal);
    // ---- operator state ----
    const hasOperatorState = scopes.has('operator') && (names === undefined || subtask.managedOperatorState?.states.some((s) => wanted(s.name)) === true);
    if (hasOperatorState) {
      try {
        const stream = await operatorStream(op, subtask);
        if (stream) {
          const broadcast = new Set(stream.header.broadcastStates.map((s) => s.name));
          const part: ScanPart = { operator: op, subtask: subtask.index, kind: 'operator', format: 'operator', states: stream.header.states.map((s) => s.name), broadcastStates: [...broadcast] };
          visitor.part?.(part);
          const scopeOf = (state: string): StateScope => (broadcast.has(state) ? 'broadcast' : 'operator');
          const partStates = [...part.states.filter(wanted).map((n) => slotKey(op.id, 'operator', n)), ...part.broadcastStates.filter(wanted).map((n) => slotKey(op.id, 'broadcast', n))];
          if (!(capped && partStates.length > 0 && partStates.every((k) => (taken.get(k) ?? 0) >= cap))) {
            const filter = { ...(names === undefined ? {} : { state: names }), ...(signal ? { signal } : {}), values };
            const entries = selection.broadcastCopies === 'counted' ? readCountedOperatorStateEntries(op, subtask.index, stream.input, stream.header, filter) : readOperatorStateEntries(stream.input, stream.header, filter);
            for await (const e of entries) {
              const go = admit(op.id, scopeOf(e.state), e.state, partStates);
              if (go === SKIP) continue;
              if (go === END_PART) break;
              if (visitor.entry(e, part) === false || go === LAST) {
                stopped = true;
                break;
              }
              if (visitor.drain) await drain();
            }
          }
        }
      } catch (e) {
        handle(e, op, subtask, 'operator');
      }
      if (stopped || selectionFull(op.id)) return result;
    }
    // ---- keyed state ----
    if (!scopes.has('keyed')) continue;
    try {
      const keyed = await keyedStream(op, subtask);
      const header = keyed?.header;
      // a changelog handle's materialized part is read in its own format
      const layout = keyed?.materializedFormat ?? keyed?.format;
      const replay = keyed?.changelog?.replay;
      if (keyed && replay) {
        await visitChangelogReplay(op, subtask.index, keyed, replay);
      } else if (keyed && header && header.states.some((s) => wanted(s.name))) {
        const incomplete = keyed.changelog?.reason;
        const part: ScanPart = { operator: op, subtask: subtask.index, kind: 'keyed', format: keyed.format, states: header.states.map((s) => s.name), broadcastStates: [], ...(incomplete === undefined ? {} : { incomplete }) };
        if (keyed.unreadable !== undefined) {
          if (!visitor.unreadable) {
            const path = [`subtask ${subtask.index}`, header.states.find((s) => wanted(s.name))!.name];
            throw (keyed.unreadableError ?? new DecodeError({ code: 'unsupported-format', detail: keyed.unreadable })).withContext({ pathPrefix: path });
          }
          visitor.unreadable(part, keyed.unreadable);
        } else if (keyed.rocksdb && layout === 'rocksdb-native') {
          visitor.part?.(part);
          const partStates = part.states.filter(wanted).map((n) => slotKey(op.id, 'keyed', n));
          const r = keyed.rocksdb;
          const open = () => openRocksDbSnapshot(opened, r.handle, { operatorId: op.id, subtask: subtask.index, role: 'managed keyed state' });
          const snapshot = await (headers === undefined ? open() : remember(headers.rocksdb, `${op.id}\u0000${subtask.index}`, open));
          const onlyKeyGroups = selection.keyGroups === undefined ? undefined : new Set(selection.keyGroups);
          const seen = new Set<number>();
          const read = new Set<number>();
          const keyGroup = (kg: number): boolean => {
            const go = onlyKeyGroups !== undefined ? onlyKeyGroups.has(kg) : sample?.kind === 'key-groups' ? kg % sample.every === 0 : true;
            if (go) read.add(kg);
            return go;
          };
          const input = { operatorId: op.id, subtask: subtask.index, maxParallelism: r.maxParallelism, range: r.handle.range, snapshot };
          // selected key groups (a page of the app): each table's index is searched for the first, reading stops past the last
          const keyGroupRange = onlyKeyGroups === undefined || onlyKeyGroups.size === 0 ? undefined : { start: Math.min(...onlyKeyGroups), end: Math.max(...onlyKeyGroups) };
          const filter = { ...(names === undefined ? {} : { state: names }), ...(signal ? { signal } : {}), ...(keyGroupRange ? { keyGroupRange } : {}), values, keyGroup, onKeyGroup: (kg: number) => void (onlyKeyGroups === undefined || onlyKeyGroups.has(kg) ? seen.add(kg) : undefined) };
          try {
            batches: for await (const batch of readRocksDbKeyedEntries(input, header, filter)) {
              for (const e of batch) {
                const go = admit(op.id, 'keyed', e.state, partStates);
                if (go === SKIP) continue;
                if (go === END_PART) break batches;
                if (visitor.entry(e, part) === false || go === LAST) {
                  stopped = true;
                  break batches;
                }
              }
              if (visitor.drain) await drain();
            }
          } finally {
            result.keyGroupsWithData += seen.size;
            result.keyGroupsRead += read.size;
          }
        } else if (keyed.input && (layout === 'canonical' || layout === 'rocksdb-full' || layout === 'heap')) {
          visitor.part?.(part);
          const partStates = part.states.filter(wanted).map((n) => slotKey(op.id, 'keyed', n));
          const sampled = selection.keyGroups === undefined ? listSampledKeyedInputs(keyed.input, sample) : narrowToKeyGroups(keyed.input, selection.keyGroups);
          result.keyGroupsWithData += sampled.keyGroupsWithData;
          result.keyGroupsRead += sampled.keyGroupsRead;
          const full = () => capped && partStates.length > 0 && partStates.every((k) => (taken.get(k) ?? 0) >= cap);
          const filter = { ...(names === undefined ? {} : { state: names }), ...(signal ? { signal } : {}), values };
          parts: for (const input of sampled.inputs) {
            if (full()) break;
            if (layout === 'heap') {
              for await (const e of readHeapKeyedEntries(input, header, filter)) {
                const go = admit(op.id, 'keyed', e.state, partStates);
                if (go === SKIP) continue;
                if (go === END_PART) break parts;
                if (visitor.entry(e, part) === false || go === LAST) {
                  stopped = true;
                  break parts;
                }
                if (visitor.drain) await drain();
              }
              continue;
            }
            // a capped read may stop early: it reads only what it asks for (no read-ahead into reused buffers)
            const reuse = readBuffers !== undefined && !capped;
            const runs = readCanonicalKeyedEntryRuns(input, header, { ...filter, ...(reuse ? { reuseReadBuffers: true, readBuffers } : {}) });
            for await (const run of runs) {
              const go = visitRun(run, part, partStates);
              if (go === END_PART) break parts;
              if (go === LAST) {
                stopped = true;
                break parts;
              }
              if (visitor.drain) await drain();
            }
          }
        }
      }
      // the states only a changelog names: not read here
      const changelog = keyed?.changelog;
      if (!stopped && changelog && !changelog.replay && changelog.states.some((s) => wanted(s.name))) {
        const part: ScanPart = { operator: op, subtask: subtask.index, kind: 'keyed', format: 'changelog', states: changelog.states.map((s) => s.name), broadcastStates: [] };
        if (!visitor.unreadable) {
          const first = changelog.states.find((s) => wanted(s.name))!;
          throw new DecodeError({ code: 'unsupported-format', detail: changelog.reason, file: opened.metadataFile, path: [`subtask ${subtask.index}`, first.name] });
        }
        visitor.unreadable(part, changelog.reason);
      }
    } catch (e) {
      handle(e, op, subtask, 'keyed');
    }
    if (stopped || selectionFull(op.id)) return result;
  }
  return result;

  /**
   * A changelog subtask whose changes are replayed: its states not replayable reported as unreadable (each
   * with its reason), then the replayed states in two parts: fully decoded, and those whose keys are kept
   * as bytes (`incomplete`: why). Entries are the materialized snapshot's with the changes applied.
   */
  async function visitChangelogReplay(op: OperatorState, subtask: number, keyed: SubtaskKeyedStream, replay: ChangelogReplay): Promise<void> {
    const header = keyed.header;
    // a lost META record may have been any state's: the subtask's keyed stream is not read (reported as its error)
    if (replay.failure !== undefined) throw new DecodeError({ code: 'invalid-value', detail: replay.failure, file: opened.metadataFile, path: [`subtask ${subtask}`] });
    const names = [...new Set([...(header?.states ?? []), ...keyed.changelog!.states].map((s) => s.name))].filter(wanted);
    if (names.length === 0) return;
    const outcome = (n: string) => replay.outcomes.get(n) ?? { kind: 'replayed' as const };
    for (const n of names) {
      const o = outcome(n);
      if (o.kind !== 'unreadable') continue;
      const part: ScanPart = { operator: op, subtask, kind: 'keyed', format: 'changelog', states: [n], broadcastStates: [] };
      if (!visitor.unreadable) throw new DecodeError({ code: 'unsupported-format', detail: o.reason, file: opened.metadataFile, path: [`subtask ${subtask}`, n] });
      visitor.unreadable(part, o.reason);
    }
    const full = names.filter((n) => outcome(n).kind === 'replayed');
    const partial = names.filter((n) => outcome(n).kind === 'partial');
    const onlyKeyGroups = selection.keyGroups === undefined ? undefined : new Set(selection.keyGroups);
    const keyGroup = (kg: number) => (onlyKeyGroups !== undefined ? onlyKeyGroups.has(kg) : sample?.kind === 'key-groups' ? kg % sample.every === 0 : true);
    for (const [group, incomplete] of [
      [full, undefined],
      [partial, partial.length > 0 ? (outcome(partial[0]!) as { reason: string }).reason : undefined],
    ] as const) {
      if (group.length === 0 || stopped) continue;
      const part: ScanPart = { operator: op, subtask, kind: 'keyed', format: 'changelog', states: group, broadcastStates: [], ...(incomplete === undefined ? {} : { incomplete }) };
      visitor.part?.(part);
      const partStates = group.map((n) => slotKey(op.id, 'keyed', n));
      // changes are inline in `_metadata` (small): decoded at once; a page that steps over values first still shows its rows decoded
      const changes = await decodeChangelogChanges(replay.input, values.mode === 'skip' ? 'decode' : values.mode);
      const only = new Set(group);
      for (const n of changes.keys()) if (!only.has(n)) changes.delete(n);
      const materialized = header && group.some((n) => header.states.some((s) => s.name === n)) ? readMaterializedEntries(op, subtask, keyed, only, onlyKeyGroups) : undefined;
      const seen = new Set<number>();
      for await (const e of replayChangelogEntries(materialized, changes, { operatorId: op.id, subtask, file: opened.metadataFile, keyGroup })) {
        throwIfCancelled(signal);
        seen.add(e.keyGroup);
        const go = admit(op.id, 'keyed', e.state, partStates);
        if (go === SKIP) continue;
        if (go === END_PART) break;
        if (visitor.entry(e, part) === false || go === LAST) {
          stopped = true;
          break;
        }
        if (visitor.drain) await drain();
      }
      result.keyGroupsWithData += seen.size;
      result.keyGroupsRead += seen.size;
    }
  }

  /** The entries of a changelog subtask's materialized snapshot, for a replay: decoded (no rows in place), in key-group order per state. */
  async function* readMaterializedEntries(op: OperatorState, subtask: number, keyed: SubtaskKeyedStream, states: ReadonlySet<string>, keyGroups: ReadonlySet<number> | undefined): AsyncGenerator<StateEntry> {
    const header = keyed.header!;
    // entries of a key group with changes are held before they are visited: read them decoded, not stepped over
    const held: ValueModeSource = { get mode() { return values.mode === 'skip' ? 'decode' : values.mode; } };
    const filter = { state: states, ...(signal ? { signal } : {}), values: held };
    const layout = keyed.materializedFormat;
    if (layout === 'rocksdb-native' && keyed.rocksdb) {
      const r = keyed.rocksdb;
      const snapshot = await openRocksDbSnapshot(opened, r.handle, { operatorId: op.id, subtask, role: 'managed keyed state' });
      const input = { operatorId: op.id, subtask, maxParallelism: r.maxParallelism, range: r.handle.range, snapshot };
      for await (const batch of readRocksDbKeyedEntries(input, header, { ...filter, keyGroup: (kg: number) => keyGroups === undefined || keyGroups.has(kg) })) yield* batch;
      return;
    }
    if (!keyed.input) return;
    const inputs = keyGroups === undefined ? [keyed.input] : narrowToKeyGroups(keyed.input, [...keyGroups]).inputs;
    for (const input of inputs) {
      if (layout === 'heap') yield* readHeapKeyedEntries(input, header, filter);
      else for await (const run of readCanonicalKeyedEntryRuns(input, header, filter)) yield* run;
    }
  }

  /** Waits for the visitor's consumer when it asks to (StateScanVisitor.drain). */
  async function drain(): Promise<void> {
    const waiting = visitor.drain?.();
    if (waiting !== undefined) await waiting;
  }

  /** Counts one entry of a state against the cap: visit it (GO, or LAST when it fills the selection), SKIP it, or END_PART (every state of the part is full). */
  function admit(operatorId: string, scope: StateScope, state: string, partStates: readonly string[]): Admission {
    if (!capped) return GO;
    const k = slotKey(operatorId, scope, state);
    const n = taken.get(k) ?? 0;
    if (n >= cap) return partStates.every((s) => (taken.get(s) ?? 0) >= cap) ? END_PART : SKIP;
    taken.set(k, n + 1);
    return selectionFull(operatorId) ? LAST : GO;
  }

  /** The run's wanted rows: in place where the visitor takes rows and the mode is `frame`, else decoded. */
  function visitRun(run: KeyedEntryRun, part: ScanPart, partStates: readonly string[]): Admission {
    const opId = part.operator.id;
    const inPlace = visitor.row !== undefined && values.mode === 'frame';
    if (!inPlace) {
      for (const e of run) {
        const go = admit(opId, 'keyed', e.state, partStates);
        if (go === SKIP) continue;
        if (go === END_PART) return END_PART;
        if (visitor.entry(e, part) === false || go === LAST) return LAST;
      }
      return GO;
    }
    let outcome: Admission = GO;
    walkFramedRows(
      run,
      (e) => {
        const go = admit(opId, 'keyed', e.state, partStates);
        if (go === SKIP) return true;
        if (go === END_PART || visitor.entry(e, part) === false || go === LAST) {
          outcome = go === END_PART ? END_PART : LAST;
          return false;
        }
        return true;
      },
      (i, frame) => {
        const go = admit(opId, 'keyed', run.stateOf(i), partStates);
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
    );
    return outcome;
  }

  function handle(e: unknown, op: OperatorState, subtask: SubtaskState, kind: 'operator' | 'keyed'): void {
    if (!isDecodeError(e) || e.code === 'cancelled' || !visitor.streamError) throw e;
    visitor.streamError(e, { operator: op, subtask: subtask.index, kind });
  }
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
 * with its frame (a scratch object, valid during the call; undefined where frameInPlace refused the
 * bytes); every other row is decoded and goes to `onEntry`. Either returns false to stop (then this
 * returns false). Same rows, order and errors as iterating the run.
 */
export function walkFramedRows(run: KeyedEntryRun, onEntry: (e: StateEntry) => boolean | void, onRow: (i: number, frame: ValueFrame | undefined) => boolean | void): boolean {
  const frame = SCRATCH_FRAME;
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
    if (!op) throw wrongInput('not-found', `expected an operator id or uid of this savepoint, found ${selection.operatorId} (operators: ${ops.map((o) => o.id).join(', ')})`);
    ops = [op];
  }
  return ops.flatMap((op) => [...op.subtasks].filter((s) => only === undefined || only.has(s.index)).sort(bySubtask).map((s): [OperatorState, SubtaskState] => [op, s]));
}

/** The stream narrowed to some key groups (those with data), in block order. */
function narrowToKeyGroups(input: KeyedStreamInput, keyGroups: readonly number[]): { inputs: KeyedStreamInput[]; keyGroupsWithData: number; keyGroupsRead: number } {
  const inputs = [...new Set(keyGroups)].flatMap((kg) => narrowKeyedInputToKeyGroup(input, kg) ?? []);
  const offsetOf = (i: KeyedStreamInput) => Math.max(...i.offsets);
  inputs.sort((a, b) => offsetOf(a) - offsetOf(b));
  return { inputs, keyGroupsWithData: inputs.length, keyGroupsRead: inputs.length };
}

async function remember<T>(cache: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> {
  let p = cache.get(key);
  if (p === undefined) {
    cache.set(key, (p = read()));
    p.catch(() => {
      if (cache.get(key) === p) cache.delete(key);
    });
  }
  return p;
}

const EMPTY = new Uint8Array(0);
const SCRATCH_FRAME: ValueFrame = { kind: 'frame', format: '', codec: { decode: () => ({ kind: 'null' }) }, bytes: EMPTY, start: 0, payloadStart: 0, end: 0, length: 0, offset: 0, file: undefined };
