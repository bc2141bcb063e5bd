/**
 * Whole-state statistics over some subtasks of a savepoint (the work of one scan worker, or of
 * the whole scan in one thread): streams every state's entries key group by key group (one range
 * read per block, so memory is bounded by the largest block), counts entries and value bytes, and
 * runs the Protobuf structural scan on every Protobuf value — never the full decoder.
 */
import {
  createEntryValueMatcher,
  createSnapshotRegistry,
  readCountedOperatorStateEntries,
  listSampledKeyedInputs,
  openSavepoint,
  readCanonicalKeyedEntryRuns,
  KeyedReadBuffers,
  readHeapKeyedEntries,
  readSubtaskKeyedStream,
  readSubtaskOperatorStream,
  throwIfCancelled,
  type CancelSignal,
  type KeyedEntryRun,
  type SampleCoverage,
  type StateEntry,
  type StateScope,
} from '../../core/flink';
import { createRowKeyText, describeEntryKey } from '../../core/compat';
import { isDecodeError, type ByteSource, type DecodeErrorJson, type SavepointFiles } from '../../core/io';
import { createProtobufStateScan, type ProtobufStateScan } from '../../core/protobuf';
import { registerScanningProtobufReaders, type ScannedFrame } from './register-scanning-protobuf-readers';
import { walkKeyedEntryRun } from './walk-keyed-entry-run';
import type { ScanOptions, ScanUnit, StateStats } from './state-stats-types';

export interface UnitsScanResult {
  states: StateStats[];
  errors: DecodeErrorJson[];
  coverage?: SampleCoverage;
  bytesRead: number;
}

export async function scanSavepointUnits(input: SavepointFiles, units: readonly Pick<ScanUnit, 'operatorId' | 'subtask'>[], options: ScanOptions & { signal?: CancelSignal } = {}): Promise<UnitsScanResult> {
  const counter = { bytes: 0 };
  const files = countStateFileReads(input, counter);
  // frames scanned while an entry was decoded; heap chunks decode several entries before yielding them
  const pending: ScannedFrame[] = [];
  // frames carry no file: within one stream (the matcher is reset between streams) offsets decide
  const matcher = createEntryValueMatcher(pending, (f) => f.offset);
  const registry = createSnapshotRegistry();
  registerScanningProtobufReaders(registry, (f) => pending.push(f));
  const opened = await openSavepoint(files);
  // one set of read buffers for every keyed stream of the scan (read one after the other)
  const readBuffers = new KeyedReadBuffers();
  const stats = new Map<string, StateStats & { scan?: ProtobufStateScan }>();
  const errors: DecodeErrorJson[] = [];
  const coverage: SampleCoverage | undefined = options.sample ? { sample: options.sample, keyGroupsRead: 0, keyGroupsWithData: 0 } : undefined;
  const slot = (operatorId: string, state: string, scope: StateScope) => {
    const k = `${operatorId}\u0000${scope}\u0000${state}`;
    let s = stats.get(k);
    if (!s) stats.set(k, (s = { operatorId, state, scope, entries: 0, valueBytes: 0 }));
    return s;
  };
  /**
   * Counts entries given one at a time (operator and heap state) or as runs of one key-group block
   * each (canonical keyed state: one async step per block, not per entry).
   */
  const tally = async (operatorId: string, input: { entries: AsyncIterable<StateEntry> } | { runs: AsyncIterable<KeyedEntryRun> }, scopeOf: (e: StateEntry) => StateScope) => {
    // entries of one state come in runs: look the slot up again only when the state or scope changes
    let lastState: string | undefined;
    let lastScope: StateScope | undefined;
    let s: ReturnType<typeof slot> | undefined;
    // the key's text is needed only for the few example keys: made on demand, once per entry
    let keyOf: () => string = () => '';
    const scanFrame = (frame: ScannedFrame): void => {
      s!.scan ??= createProtobufStateScan(frame.index, {
        maxMessageSize: frame.content.settings.maxMessageSize,
        recursionLimit: frame.content.settings.recursionLimit,
        root: frame.content.schema.root,
        ...(options.newLimits ? { newLimits: options.newLimits } : {}),
      });
      s!.scan.addPayloadRange(frame.bytes, frame.start, frame.end, keyOf, frame.length);
    };
    const add = (e: StateEntry): void => {
      const scope = scopeOf(e);
      if (s === undefined || e.state !== lastState || scope !== lastScope) {
        s = slot(operatorId, e.state, scope);
        lastState = e.state;
        lastScope = scope;
      }
      s.entries++;
      s.valueBytes += e.valueRange?.length ?? 0;
      if (pending.length === 0 || !e.valueRange) return;
      let key: string | undefined;
      keyOf = () => (key ??= describeEntryKey(e.key, e.userKey));
      matcher.take(e, scanFrame);
    };
    /** a keyed row whose Protobuf frame was read in place (walkKeyedEntryRun): what add does for its entry */
    const addRow = (run: KeyedEntryRun, i: number, frame: ScannedFrame | undefined): void => {
      const state = run.stateOf(i);
      if (s === undefined || state !== lastState || lastScope !== 'keyed') {
        s = slot(operatorId, state, 'keyed');
        lastState = state;
        lastScope = 'keyed';
      }
      s.entries++;
      s.valueBytes += run.valueEnd(i) - run.valueStart(i);
      if (frame === undefined) return;
      rowKey.at(run, i);
      keyOf = rowKey.text;
      scanFrame(frame);
    };
    // the key text of the row just handed over, made only if the scan asks for it
    const rowKey = createRowKeyText();
    // Frames are matched to entries by offset, and offsets are only comparable within one stream (one
    // Snappy block for compressed keyed state, where they restart at 0): frames decoded for entries that
    // were never yielded (a broadcast copy not counted) must not reach the next stream's entries.
    matcher.reset();
    if ('runs' in input) {
      for await (const run of input.runs) {
        walkKeyedEntryRun(run, add, addRow);
        matcher.reset();
      }
    } else {
      for await (const e of input.entries) add(e);
    }
    matcher.reset();
  };
  const signal = options.signal ? { signal: options.signal } : {};
  for (const unit of units) {
    const op = opened.metadata.operators.find((o) => o.id === unit.operatorId);
    const subtask = op?.subtasks.find((s) => s.index === unit.subtask);
    if (!op || !subtask) continue;
    throwIfCancelled(options.signal);
    try {
      const stream = await readSubtaskOperatorStream(opened, op, subtask, registry);
      if (stream) {
        const broadcast = new Set(stream.header.broadcastStates.map((s) => s.name));
        for (const s of stream.header.states) slot(op.id, s.name, 'operator');
        for (const s of stream.header.broadcastStates) slot(op.id, s.name, 'broadcast');
        // every subtask holds a full copy of a broadcast state: scan one copy, not the sum (readCountedOperatorStateEntries)
        await tally(op.id, { entries: readCountedOperatorStateEntries(op, subtask.index, stream.input, stream.header, signal) }, (e) => (broadcast.has(e.state) ? 'broadcast' : 'operator'));
      }
    } catch (e) {
      if (!isDecodeError(e) || e.code === 'cancelled') throw e;
      errors.push(e.toJSON());
    }
    try {
      const keyed = await readSubtaskKeyedStream(opened, op, subtask, registry);
      if (keyed?.input && keyed.header && (keyed.format === 'canonical' || keyed.format === 'heap')) {
        for (const s of keyed.header.states) slot(op.id, s.name, 'keyed');
        const sampled = listSampledKeyedInputs(keyed.input, options.sample);
        if (coverage) {
          coverage.keyGroupsRead += sampled.keyGroupsRead;
          coverage.keyGroupsWithData += sampled.keyGroupsWithData;
        }
        for (const part of sampled.inputs) {
          await tally(op.id, keyed.format === 'heap' ? { entries: readHeapKeyedEntries(part, keyed.header, signal) } : { runs: readCanonicalKeyedEntryRuns(part, keyed.header, { ...signal, reuseReadBuffers: true, readBuffers }) }, () => 'keyed');
        }
      }
    } catch (e) {
      if (!isDecodeError(e) || e.code === 'cancelled') throw e;
      errors.push(e.toJSON());
    }
  }
  const states = [...stats.values()].map(({ scan, ...s }) => (scan ? { ...s, protobuf: scan.finish() } : s));
  return { states, errors, ...(coverage ? { coverage } : {}), bytesRead: counter.bytes };
}

/** The input with its state-file reads counted (`_metadata` is not counted). */
function countStateFileReads(input: SavepointFiles, counter: { bytes: number }): SavepointFiles {
  const wrap = (s: ByteSource): ByteSource => {
    const readInto = s.readInto?.bind(s);
    return {
      name: s.name,
      size: s.size,
      read(offset, length) {
        counter.bytes += length;
        return s.read(offset, length);
      },
      ...(readInto === undefined
        ? {}
        : {
            readInto(offset: number, length: number, target: Uint8Array) {
              counter.bytes += length;
              return readInto(offset, length, target);
            },
          }),
    };
  };
  const cache = new Map<string, ByteSource>();
  return {
    ...input,
    resolveRelative(path) {
      const s = input.resolveRelative(path);
      if (!s) return undefined;
      let w = cache.get(path);
      if (!w) cache.set(path, (w = wrap(s)));
      return w;
    },
  };
}
