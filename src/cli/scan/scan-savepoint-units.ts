/**
 * Whole-state statistics over some subtasks of a savepoint (the work of one scan worker, or of
 * the whole scan in one thread): scanState in `frame` mode over the units, counting entries and
 * value bytes and running the Protobuf structural scan on every Protobuf value where it lies in the
 * read buffer — never the full decoder. Memory is bounded by the read buffers (reused across streams).
 */
import { openSavepoint, scanState, type CancelSignal, type OpenedSavepoint, type SampleCoverage, type StateScope, type ValueFrame } from '../../core/flink';
import { createRowKeyText, createSavepointRegistry, describeEntryKey } from '../../core/compat';
import { observeSourceReads, type ByteSource, type DecodeErrorJson, type SavepointFiles } from '../../core/io';
import { asProtobufFrame, createProtobufStateScan, getProtobufScanIndex, listProtobufFrames, type EntryKeyText, type ProtobufStateScan } from '../../core/protobuf';
import type { ScanOptions, ScanUnit, StateStats } from './state-stats-types';

export interface UnitsScanResult {
  states: StateStats[];
  errors: DecodeErrorJson[];
  coverage?: SampleCoverage;
  bytesRead: number;
}

/** `input`: the savepoint already opened (the caller's: `_metadata` is not read again), or its files (a worker thread's: opened here). */
export async function scanSavepointUnits(input: SavepointFiles | OpenedSavepoint, units: readonly Pick<ScanUnit, 'operatorId' | 'subtask'>[], options: ScanOptions & { signal?: CancelSignal } = {}): Promise<UnitsScanResult> {
  const counter = { bytes: 0 };
  const registry = createSavepointRegistry({ schema: options.kryoSchema });
  const opened = countStateReads('resolveStreamHandle' in input ? input : await openSavepoint(input), counter);
  const stats = new Map<string, StateStats & { scan?: ProtobufStateScan }>();
  const errors: DecodeErrorJson[] = [];
  const slot = (operatorId: string, state: string, scope: StateScope) => {
    const k = `${operatorId}\u0000${scope}\u0000${state}`;
    let s = stats.get(k);
    if (!s) stats.set(k, (s = { operatorId, state, scope, entries: 0, valueBytes: 0 }));
    return s;
  };
  // entries of one state come in runs: look the slot up again only when the state or scope changes
  let s: (StateStats & { scan?: ProtobufStateScan }) | undefined;
  let broadcast: ReadonlySet<string> = new Set();
  const at = (operatorId: string, state: string, scope: StateScope) => {
    if (s === undefined || s.state !== state || s.scope !== scope || s.operatorId !== operatorId) s = slot(operatorId, state, scope);
    return s;
  };
  const scanFrame = (frame: ValueFrame, key: EntryKeyText): void => {
    const f = asProtobufFrame(frame);
    if (f === undefined) return;
    const content = f.codec.content;
    s!.scan ??= createProtobufStateScan(getProtobufScanIndex(content.schema.root), {
      maxMessageSize: content.settings.maxMessageSize,
      recursionLimit: content.settings.recursionLimit,
      root: content.schema.root,
      ...(options.newLimits ? { newLimits: options.newLimits } : {}),
    });
    s!.scan.addPayloadRange(f.bytes, f.payloadStart, f.end, key, f.length);
  };
  // the key text of the row just handed over, made only if the scan asks for it (example keys)
  const rowKey = createRowKeyText();
  const covered = await scanState(
    opened,
    registry,
    { units, broadcastCopies: 'counted', ...(options.sample ? { sample: options.sample } : {}) },
    {
      part(part) {
        for (const name of part.states) {
          const st = slot(part.operator.id, name, part.kind === 'keyed' ? 'keyed' : 'operator');
          if (part.incomplete !== undefined) st.partly ??= part.incomplete;
        }
        for (const name of part.broadcastStates) slot(part.operator.id, name, 'broadcast');
        broadcast = new Set(part.broadcastStates);
        s = undefined;
      },
      entry(e, part) {
        const t = at(part.operator.id, e.state, part.kind === 'keyed' ? 'keyed' : broadcast.has(e.state) ? 'broadcast' : 'operator');
        t.entries++;
        t.valueBytes += e.valueRange?.length ?? 0;
        const frames = listProtobufFrames(e.value);
        if (frames.length === 0) return;
        let key: string | undefined;
        const keyOf = () => (key ??= describeEntryKey(e.key, e.userKey));
        for (const f of frames) scanFrame(f, keyOf);
      },
      row(run, i, frame, part) {
        const t = at(part.operator.id, run.stateOf(i), 'keyed');
        t.entries++;
        t.valueBytes += run.valueEnd(i) - run.valueStart(i);
        if (frame === undefined) return;
        rowKey.at(run, i);
        scanFrame(frame, rowKey.text);
      },
      streamError: (e) => void errors.push(e.toJSON()),
      // a part that cannot be read (a RocksDB native handle without meta data, missing SST files, …): its states are listed as not read, with the reason
      unreadable(part, reason) {
        for (const name of part.states) slot(part.operator.id, name, 'keyed').notRead = reason;
      },
    },
    // one set of read buffers for every keyed stream of the scan (read one after the other)
    { values: { mode: 'frame' }, reuseReadBuffers: true, ...(options.signal ? { signal: options.signal } : {}) },
  );
  const coverage: SampleCoverage | undefined = options.sample ? { sample: options.sample, keyGroupsRead: covered.keyGroupsRead, keyGroupsWithData: covered.keyGroupsWithData } : undefined;
  const states = [...stats.values()].map(({ scan, ...st }) => (scan ? { ...st, protobuf: scan.finish() } : st));
  return { states, errors, ...(coverage ? { coverage } : {}), bytesRead: counter.bytes };
}

/**
 * The opened savepoint with its state reads counted: every stream a handle resolves to (a state file,
 * a segment of one, or state inline in `_metadata`: read whole when it was opened, what the scan reads of
 * it is state read), and the files reached by name. The reads of `_metadata` itself are not counted.
 */
function countStateReads(opened: OpenedSavepoint, counter: { bytes: number }): OpenedSavepoint {
  return {
    ...opened,
    files: countStateFileReads(opened.files, counter),
    resolveStreamHandle(handle, context) {
      const resolved = opened.resolveStreamHandle(handle, context);
      return { ...resolved, source: countReads(resolved.source, counter) };
    },
  };
}

function countReads(src: ByteSource, counter: { bytes: number }): ByteSource {
  return observeSourceReads(src, { onRead: (bytes) => void (counter.bytes += bytes) });
}

/** The input with its state-file reads counted (the reads of `_metadata` itself are not). */
function countStateFileReads(input: SavepointFiles, counter: { bytes: number }): SavepointFiles {
  const wrap = (src: ByteSource) => countReads(src, counter);
  const cache = new Map<string, ByteSource>();
  return {
    ...input,
    resolveRelative(path) {
      const src = input.resolveRelative(path);
      if (!src) return undefined;
      let w = cache.get(path);
      if (!w) cache.set(path, (w = wrap(src)));
      return w;
    },
    resolveAbsolute(absolutePath) {
      const found = input.resolveAbsolute?.(absolutePath);
      if (!found) return undefined;
      const key = `\u0000${found.path}`;
      let w = cache.get(key);
      if (!w) cache.set(key, (w = wrap(found.source)));
      return { ...found, source: w };
    },
  };
}
