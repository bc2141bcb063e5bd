import type { DecodeErrorJson } from '../../io';
import type { CancelSignal } from '../cancel-signal';
import type { StateScope } from '../savepoint/inspection-types';
import type { OpenedSavepoint } from '../savepoint/open-savepoint';
import { checkStateSample, type SampleCoverage, type StateSample } from '../keyed/sample-keyed-stream';
import type { SnapshotRegistry } from '../snapshots/snapshot-types';
import type { StateEntry } from '../savepoint/inspection-types';
import type { DecodedValue } from '../snapshots/snapshot-types';
import { readAheadInOrder } from '../savepoint/read-ahead-in-order';
import { listStateScanUnits, scanState, type ScanPart, type StateScanOptions, type StateScanSelection, type SubtaskHeaderCache } from './scan-state';
import { StateTallies } from './state-tallies';

/** The reason of the first key, namespace, user key or value of the entry that its known serializer could not decode. */
function firstFailed(e: StateEntry): string | undefined {
  if (isFailed(e.value)) return e.value.reason;
  if (isFailed(e.key)) return e.key.reason;
  if (isFailed(e.namespace)) return e.namespace.reason;
  return isFailed(e.userKey) ? e.userKey.reason : undefined;
}

function isFailed(v: DecodedValue | null | undefined): v is DecodedValue & { kind: 'opaque' } {
  return v !== null && v !== undefined && v.kind === 'opaque' && v.decodeFailed === true;
}

export interface StateEntryCount {
  operatorId: string;
  state: string;
  scope: StateScope;
  entries: number;
  /** set when a sample was read: the count covers only the sampled entries */
  sampled?: true;
}

/** A stream of a subtask whose states' entries were not all counted. */
export interface StateReadGap {
  operatorId: string;
  subtask: number;
  /** operator: the operator stream (its list, union and broadcast states); keyed: the keyed stream */
  scope: 'operator' | 'keyed';
  /** the states its header names (for a changelog's states only it names, those); undefined when the header itself failed */
  states?: readonly string[];
  /**
   * failed: the stream stopped at an error (the entries before it are counted); unreadable: its entries
   * are not readable here (RocksDB native, a changelog); incomplete: read, but its entries are not the
   * whole of its states (a changelog's changes after the materialized part); undecodable: read to its
   * end, but some values its known serializer could not decode (kept as their bytes)
   */
  kind: 'failed' | 'unreadable' | 'incomplete' | 'undecodable';
  reason: string;
}

export interface CountStateEntriesResult {
  /** every readable state, 0 for states listed in headers without entries; states not readable here (RocksDB native, changelog) are absent */
  counts: StateEntryCount[];
  /** streams that failed (their states' counts cover only the entries read before the failure) */
  errors: DecodeErrorJson[];
  /** every stream whose states' entries were not all counted, and why (the failures of `errors` among them) */
  gaps: StateReadGap[];
  /** present when options.sample was given: what the sample covered */
  coverage?: SampleCoverage;
}

/**
 * How many subtasks the entry count reads at once (issue #35): each subtask's state files are read one
 * request after another, so over HTTP at most this many requests are in flight; each subtask holds its
 * own read buffers while it is read, and only its counts (a few numbers per state, its errors and gaps)
 * until they are merged in scan order.
 */
export const COUNT_READ_AHEAD = 4;

/**
 * Counts the entries of every state (a full scan of all state data): keyed entries per
 * key/namespace[/user key], operator list elements, broadcast map entries (one subtask's copy:
 * every subtask holds the whole broadcast state). Subtasks are read COUNT_READ_AHEAD at once and
 * their counts merged in scan order: the result (counts, errors, gaps and their order) is the one a
 * scan of one subtask after another gives, from the same reads.
 */
export async function countStateEntries(
  opened: OpenedSavepoint,
  registry: SnapshotRegistry,
  options: { operatorId?: string; signal?: CancelSignal; sample?: StateSample; headers?: SubtaskHeaderCache } = {},
): Promise<CountStateEntriesResult> {
  const sample = options.sample;
  const selection: StateScanSelection = {
    ...(options.operatorId !== undefined ? { operatorId: options.operatorId } : {}),
    ...(sample ? { sample } : {}),
    broadcastCopies: 'counted',
  };
  const scanOptions: StateScanOptions = {
    values: { mode: 'decode' },
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    reuseReadBuffers: true,
  };
  const total = createTally();
  if (sample?.kind === 'first-entries') {
    // the first N entries of each state are those of its subtasks in index order: one scan reads them (a scan per subtask would cap each)
    mergeTally(total, await countUnits(opened, registry, selection, scanOptions, sample));
  } else {
    // each subtask on its own, a bounded number at once (independent files overlap), merged strictly in scan order;
    // a bad sample is refused before anything is read, as one scan refuses it (also when there is no subtask to read)
    if (sample) checkStateSample(sample);
    const units = listStateScanUnits(opened, selection).map(([op, subtask]) => ({ operatorId: op.id, subtask: subtask.index }));
    const unitSelection: StateScanSelection = { ...(sample ? { sample } : {}), broadcastCopies: 'counted' };
    const reads = readAheadInOrder(units, COUNT_READ_AHEAD, (unit) =>
      settle(() => countUnits(opened, registry, { ...unitSelection, units: [unit] }, scanOptions, sample)),
    );
    for await (const read of reads) {
      if (!read.ok) throw read.error;
      mergeTally(total, read.value);
    }
  }
  const { counts, errors, gaps, undecodable } = total;
  for (const { gap, count } of undecodable.values()) {
    gaps.push({
      ...gap,
      reason: `subtask ${gap.subtask}: ${count} ${count === 1 ? 'entry' : 'entries'} read whose values could not be decoded (the first: ${gap.reason})`,
    });
  }
  const coverage: SampleCoverage | undefined = sample ? { sample, keyGroupsRead: total.keyGroupsRead, keyGroupsWithData: total.keyGroupsWithData } : undefined;
  return { counts: [...counts.values()], errors, gaps, ...(coverage ? { coverage } : {}) };
}

/** What a scan of some subtasks counted, in the order it was found. */
interface CountTally {
  /** by operator, scope and state, in the order the states were first met */
  counts: Map<string, StateEntryCount>;
  errors: DecodeErrorJson[];
  gaps: StateReadGap[];
  /** per operator, subtask, scope and state: the values that could not be decoded, and the first reason */
  undecodable: Map<string, { gap: StateReadGap; count: number }>;
  keyGroupsRead: number;
  keyGroupsWithData: number;
}

function createTally(counts: Map<string, StateEntryCount> = new Map()): CountTally {
  return { counts, errors: [], gaps: [], undecodable: new Map(), keyGroupsRead: 0, keyGroupsWithData: 0 };
}

/** Adds a later scan's tally to `into`: as if one scan had gone on through its subtasks. */
function mergeTally(into: CountTally, next: CountTally): void {
  for (const [k, c] of next.counts) {
    const have = into.counts.get(k);
    if (have) have.entries += c.entries;
    else into.counts.set(k, c);
  }
  into.errors.push(...next.errors);
  into.gaps.push(...next.gaps);
  for (const [k, u] of next.undecodable) {
    const have = into.undecodable.get(k);
    if (have) have.count += u.count;
    else into.undecodable.set(k, u);
  }
  into.keyGroupsRead += next.keyGroupsRead;
  into.keyGroupsWithData += next.keyGroupsWithData;
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

async function settle<T>(fn: () => Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** One scan over the selection's subtasks, counting what it reads (a stream error is counted as a gap; anything else is thrown). */
async function countUnits(
  opened: OpenedSavepoint,
  registry: SnapshotRegistry,
  selection: StateScanSelection,
  scanOptions: StateScanOptions,
  sample: StateSample | undefined,
): Promise<CountTally> {
  // every state the headers name is counted, 0 when it has no entries
  const tallies = new StateTallies<StateEntryCount>((operatorId, state, scope) => ({
    operatorId,
    state,
    scope,
    entries: 0,
    ...(sample ? { sampled: true as const } : {}),
  }));
  const tally = createTally(tallies.byState);
  const { errors, gaps, undecodable } = tally;
  // the part under way: a stream error names the states of the part it stopped (none when its header failed)
  let current: ScanPart | undefined;
  const noteUndecodable = (e: StateEntry, part: ScanPart, scope: StateScope) => {
    const failed = firstFailed(e);
    if (failed === undefined) return;
    const k = `${part.operator.id}\u0000${part.subtask}\u0000${scope}\u0000${e.state}`;
    const seen = undecodable.get(k);
    if (seen) seen.count++;
    else
      undecodable.set(k, {
        gap: { operatorId: part.operator.id, subtask: part.subtask, scope: part.kind, states: [e.state], kind: 'undecodable', reason: failed },
        count: 1,
      });
  };
  const covered = await scanState(
    opened,
    registry,
    selection,
    {
      part(part) {
        current = part;
        if (part.incomplete !== undefined)
          gaps.push({
            operatorId: part.operator.id,
            subtask: part.subtask,
            scope: part.kind,
            states: part.states,
            kind: 'incomplete',
            reason: part.incomplete,
          });
        tallies.startPart(part);
      },
      entry(e, part) {
        const count = tallies.ofEntry(part, e.state);
        count.entries++;
        noteUndecodable(e, part, count.scope);
      },
      streamError(e, where) {
        errors.push(e.toJSON());
        const part =
          current !== undefined && current.operator.id === where.operator.id && current.subtask === where.subtask && current.kind === where.kind
            ? current
            : undefined;
        gaps.push({
          operatorId: where.operator.id,
          subtask: where.subtask,
          scope: where.kind,
          ...(part ? { states: [...part.states, ...part.broadcastStates] } : {}),
          kind: 'failed',
          reason: e.message,
        });
      },
      // keyed state not readable here (RocksDB native, a changelog's states): absent from the counts, listed as a gap
      unreadable(part, reason) {
        gaps.push({ operatorId: part.operator.id, subtask: part.subtask, scope: part.kind, states: part.states, kind: 'unreadable', reason });
      },
    },
    scanOptions,
  );
  tally.keyGroupsRead = covered.keyGroupsRead;
  tally.keyGroupsWithData = covered.keyGroupsWithData;
  return tally;
}
