import { isDecodeError, type DecodeErrorJson } from '../../io';
import type { CancelSignal } from '../cancel-signal';
import { countStateEntries, type StateReadGap } from '../scan/count-state-entries';
import { assessStateDecoding, summarizeStateDecoding } from './assess-state-decoding';
import type { InspectedOperator, InspectedState, SavepointInspection, StateMetaInfo } from '../savepoint/inspection-types';
import { mergeInspectedState } from './merge-inspected-states';
import type { OpenedSavepoint } from '../savepoint/open-savepoint';
import type { SubtaskKeyedStream, SubtaskOperatorStream } from '../headers/read-subtask-state-headers';
import { readCachedKeyedStream, readCachedOperatorStream } from '../scan/sources/scan-context';
import type { SubtaskHeaderCache } from '../scan/scan-types';
import type { SnapshotRegistry } from '../snapshots/snapshot-types';
import type { OperatorState, SubtaskState } from '../metadata/metadata-types';
import { readAheadInOrder } from '../savepoint/read-ahead-in-order';
import { hasSourcesAndSinks, readSourcesAndSinks } from '../connectors/read-sources-and-sinks';
import { readSubtaskRawTimers, type SubtaskRawTimers } from '../keyed/read-raw-keyed-timers';

/**
 * How many subtasks' state headers are read at once (each subtask reads its files one after another,
 * so at most this many requests are in flight over HTTP): independent files overlap, and at most this
 * many subtasks' headers are held before they are merged.
 */
export const INSPECT_READ_AHEAD = 4;

export interface InspectSavepointOptions {
  /** also scan every state's entries to fill `entries` (a full read; default false: headers only) */
  countEntries?: boolean;
  signal?: CancelSignal;
  /** the stream headers read through this cache (a SavepointSession's: its scans and entry counts read them no more); default: read here */
  headers?: SubtaskHeaderCache;
}

/**
 * Inspects a savepoint: `_metadata` plus only the header bytes of each state file, merged into
 * per-operator, per-state records (scope, kind, serializers, subtasks). Header failures become
 * `errors` entries (the rest goes on); nothing here throws for bad state files. `opened`: the savepoint as its
 * caller opened it (a SavepointSession's, openSavepointSession): `_metadata` is not read here.
 */
export async function inspectSavepoint(
  opened: OpenedSavepoint,
  registry: SnapshotRegistry,
  options: InspectSavepointOptions = {},
): Promise<SavepointInspection> {
  const files = opened.files;
  const errors: DecodeErrorJson[] = [];
  const operators: InspectedOperator[] = [];
  // every subtask's headers, read a bounded number ahead and merged strictly in `_metadata`'s order: the
  // result (states, warnings, errors) is the same as reading one subtask after another
  const reads = opened.metadata.operators.flatMap((op) => op.subtasks.map((subtask) => ({ op, subtask })));
  const streams = readAheadInOrder(reads, INSPECT_READ_AHEAD, ({ op, subtask }) => readSubtaskStreams(opened, op, subtask, registry, options.headers));
  try {
    for (const op of opened.metadata.operators) {
      const read: SubtaskStreams[] = [];
      for (let i = 0; i < op.subtasks.length; i++) {
        const next = await streams.next();
        if (next.done === true) throw new Error('expected a read for every subtask, found fewer');
        read.push(next.value);
      }
      operators.push(inspectOperator(opened, op, read, errors));
    }
  } finally {
    await streams.return(undefined);
  }
  let gaps: StateReadGap[] | undefined;
  if (options.countEntries) {
    const counts = await countStateEntries(opened, registry, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.headers ? { headers: options.headers } : {}),
    });
    for (const c of counts.counts) {
      const state = operators.find((o) => o.id === c.operatorId)?.states.find((s) => s.name === c.state && s.scope === c.scope);
      if (state) state.entries = c.entries;
    }
    errors.push(...counts.errors);
    gaps = counts.gaps;
  }
  // connector state as views (issue #36): read with the entries (a headers-only inspection reads no element)
  const sourcesAndSinks = options.countEntries
    ? await readSourcesAndSinks(opened, registry, operators, {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.headers ? { headers: options.headers } : {}),
      })
    : undefined;
  assessStateDecoding(operators, gaps);
  const props = opened.metadata.properties;
  return {
    input: files.name,
    metadataVersion: opened.metadata.version,
    checkpointId: opened.metadata.checkpointId.toString(),
    type: props?.type ?? 'unknown',
    format: props?.formatType ?? 'unknown',
    totalSize: opened.totals.totalSize,
    operators,
    summary: summarizeStateDecoding(operators),
    warnings: [...opened.warnings],
    errors,
    ...(opened.totals.missingFiles.length === 0 ? {} : { missingFiles: opened.totals.missingFiles.map((f) => f.name) }),
    ...(sourcesAndSinks && hasSourcesAndSinks(sourcesAndSinks) ? { sourcesAndSinks } : {}),
  };
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** One subtask's operator and keyed stream headers, read one after the other; a failure is kept, not thrown. */
interface SubtaskStreams {
  subtask: SubtaskState;
  operator: Settled<SubtaskOperatorStream | undefined>;
  /** absent when the operator stream failed with something other than a DecodeError (rethrown when merged, as before) */
  keyed?: Settled<SubtaskKeyedStream | undefined>;
  /** the timers of the subtask's raw keyed state (Flink 1.8–1.9 heap timers), when the keyed stream was read */
  rawTimers?: Settled<SubtaskRawTimers | undefined>;
}

async function settle<T>(fn: () => Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    return { ok: false, error };
  }
}

async function readSubtaskStreams(
  opened: OpenedSavepoint,
  op: OperatorState,
  subtask: SubtaskState,
  registry: SnapshotRegistry,
  headers: SubtaskHeaderCache | undefined,
): Promise<SubtaskStreams> {
  const operator = await settle(() => readCachedOperatorStream(headers, opened, op, subtask, registry));
  if (!operator.ok && !isDecodeError(operator.error)) return { subtask, operator };
  const keyed = await settle(() => readCachedKeyedStream(headers, opened, op, subtask, registry));
  return { subtask, operator, keyed, rawTimers: await settle(() => readSubtaskRawTimers(opened, op, subtask, registry)) };
}

/** Merges an operator's subtasks' headers (`read`, in subtask order) into its inspected states. */
function inspectOperator(opened: OpenedSavepoint, op: OperatorState, read: readonly SubtaskStreams[], errors: DecodeErrorJson[]): InspectedOperator {
  const states: InspectedState[] = [];
  const warnings: string[] = [];
  const streamsNotRead: InspectedOperator['streamsNotRead'] = [];
  let keyedFormat: InspectedOperator['keyedFormat'] = 'none';
  const record = (e: unknown) => {
    if (!isDecodeError(e)) throw e;
    errors.push(e.toJSON());
    warnings.push(e.message);
  };
  for (const { subtask, operator, keyed: keyedRead, rawTimers } of read) {
    try {
      if (!operator.ok) throw operator.error;
      const operatorStream = operator.value;
      if (operatorStream) {
        warnings.push(...operatorStream.warnings);
        for (const meta of operatorStream.header.states) mergeInspectedState(states, warnings, 'operator', meta, subtask.index, undefined);
        for (const meta of operatorStream.header.broadcastStates) mergeInspectedState(states, warnings, 'broadcast', meta, subtask.index, undefined);
      }
    } catch (e) {
      record(e);
      for (const s of subtask.managedOperatorState?.states ?? []) {
        const scope = s.mode === 'BROADCAST' ? 'broadcast' : 'operator';
        const kind = s.mode === 'BROADCAST' ? 'BROADCAST' : s.mode === 'UNION' ? 'OPERATOR_UNION' : 'OPERATOR_LIST';
        const meta: StateMetaInfo = { name: s.name, backendStateType: s.mode === 'BROADCAST' ? 'BROADCAST' : 'OPERATOR', kind, options: {}, serializers: {} };
        mergeInspectedState(states, warnings, scope, meta, subtask.index, undefined, {
          status: 'unreadable',
          statusReason: isDecodeError(e) ? e.message : String(e),
        });
      }
    }
    try {
      if (!keyedRead!.ok) throw keyedRead!.error;
      const keyed = keyedRead!.value;
      if (keyed) {
        keyedFormat = keyed.format;
        warnings.push(...keyed.warnings);
        const override = keyed.unreadable !== undefined ? { status: 'unreadable' as const, statusReason: keyed.unreadable } : undefined;
        const changelog = keyed.changelog;
        const replay = changelog?.replay;
        if (replay) {
          // a replayed changelog: each state as its replay went (states without changes: as materialized)
          const keySerializer = keyed.header?.keySerializer ?? replay.input.key?.serializer;
          for (const meta of [...(keyed.header?.states ?? []), ...changelog!.states]) {
            const o = replay.outcomes.get(meta.name);
            const unreadable = o?.kind === 'unreadable' ? { status: 'unreadable' as const, statusReason: o.reason } : undefined;
            mergeInspectedState(states, warnings, 'keyed', meta, subtask.index, keySerializer, unreadable, o?.kind === 'partial' ? o.reason : undefined);
          }
          if (replay.failure !== undefined) streamsNotRead.push({ subtask: subtask.index, scope: 'keyed', reason: replay.failure });
        } else {
          for (const meta of keyed.header?.states ?? [])
            mergeInspectedState(states, warnings, 'keyed', meta, subtask.index, keyed.header!.keySerializer, override, changelog?.reason);
          // the states only a changelog names: listed, not read
          for (const meta of changelog?.states ?? [])
            mergeInspectedState(states, warnings, 'keyed', meta, subtask.index, keyed.header?.keySerializer, {
              status: 'unreadable',
              statusReason: changelog!.reason,
            });
        }
        if (keyed.header === undefined && keyed.unreadable !== undefined && (changelog?.states.length ?? 0) === 0)
          streamsNotRead.push({ subtask: subtask.index, scope: 'keyed', reason: keyed.unreadable });
      }
    } catch (e) {
      record(e);
      streamsNotRead.push({ subtask: subtask.index, scope: 'keyed', reason: isDecodeError(e) ? e.message : String(e) });
    }
    // timers of the raw keyed state, listed as the managed heap timer states are (their entries are the scan's)
    if (rawTimers !== undefined) {
      if (!rawTimers.ok) {
        record(rawTimers.error);
        const reason = isDecodeError(rawTimers.error) ? rawTimers.error.message : String(rawTimers.error);
        streamsNotRead.push({ subtask: subtask.index, scope: 'keyed', reason: `raw keyed state (timers): ${reason}` });
      } else for (const t of rawTimers.value?.states ?? []) mergeInspectedState(states, warnings, 'keyed', t.meta, subtask.index, t.keySerializer);
    }
  }
  for (const s of states) s.subtasks.sort((a, b) => a - b);
  const totals = opened.totals.operators.find((o) => o.id === op.id);
  return {
    id: op.id,
    ...(op.name !== undefined ? { name: op.name } : {}),
    ...(op.uid !== undefined ? { uid: op.uid } : {}),
    parallelism: op.parallelism,
    maxParallelism: op.maxParallelism,
    fullyFinished: op.fullyFinished,
    subtaskCount: op.subtasks.length,
    stateSize: totals?.stateSize ?? 0,
    keyedFormat,
    states,
    streamsNotRead,
    warnings: [...new Set(warnings)],
  };
}
