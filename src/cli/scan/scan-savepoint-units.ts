/**
 * Whole-state statistics over some subtasks of a savepoint (the work of one scan worker, or of
 * the whole scan in one thread): scanState in `frame` mode over the units, counting entries and
 * value bytes and running the Protobuf structural scan on every Protobuf value where it lies in the
 * read buffer — never the full decoder. Memory is bounded by the read buffers (reused across streams).
 */
import { createSnapshotRegistry, openSavepoint, scanState, StateTallies, type CancelSignal, type OpenedSavepoint, type SampleCoverage } from '../../core/flink';
import { loadDescriptorSet, registerKryoProtobufReaders, registerPeerSerdeReaders } from '../../core/compat';
import type { ByteSource, DecodeErrorJson, SavepointFiles } from '../../core/io';
import { createProtobufStateScan, getProtobufScanIndex, registerProtobufSnapshotReaders, type ProtobufStateScan } from '../../core/protobuf';
import { createStatisticsVisitor } from '../../core/report';
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
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  const kryo = options.kryoSchema;
  const schema = kryo ? { ...kryo, set: loadDescriptorSet(kryo.bytes, kryo.name).set } : undefined;
  registerKryoProtobufReaders(registry, schema);
  registerPeerSerdeReaders(registry, schema);
  const opened = countInlineStateReads(await openSavepoint(files), counter);
  // every state the headers name gets its statistics, 0 entries when it has none
  const tallies = new StateTallies<StateStats & { scan?: ProtobufStateScan }>((operatorId, state, scope) => ({ operatorId, state, scope, entries: 0, valueBytes: 0 }));
  const errors: DecodeErrorJson[] = [];
  const statistics = createStatisticsVisitor<StateStats & { scan?: ProtobufStateScan }>({
    admit(part, state, _subtask, _keyGroup, valueBytes) {
      const t = tallies.ofEntry(part, state);
      t.entries++;
      t.valueBytes += valueBytes;
      return t;
    },
    protobuf(t, f, key) {
      const content = f.codec.content;
      t.scan ??= createProtobufStateScan(getProtobufScanIndex(content.schema.root), {
        maxMessageSize: content.settings.maxMessageSize,
        recursionLimit: content.settings.recursionLimit,
        root: content.schema.root,
        ...(options.newLimits ? { newLimits: options.newLimits } : {}),
      });
      t.scan.addPayloadRange(f.bytes, f.payloadStart, f.end, key, f.length);
    },
  });
  const covered = await scanState(
    opened,
    registry,
    { units, broadcastCopies: 'counted', ...(options.sample ? { sample: options.sample } : {}) },
    {
      part(part) {
        tallies.startPart(part);
        if (part.incomplete !== undefined) for (const name of part.states) tallies.get(part.operator.id, name, part.kind === 'keyed' ? 'keyed' : 'operator').partly ??= part.incomplete;
      },
      ...statistics,
      streamError: (e) => void errors.push(e.toJSON()),
      // a part that cannot be read (a RocksDB native handle without meta data, missing SST files, …): its states are listed as not read, with the reason
      unreadable(part, reason) {
        for (const name of part.states) tallies.get(part.operator.id, name, 'keyed').notRead = reason;
      },
    },
    // one set of read buffers for every keyed stream of the scan (read one after the other)
    { values: { mode: 'frame' }, reuseReadBuffers: true, ...(options.signal ? { signal: options.signal } : {}) },
  );
  const coverage: SampleCoverage | undefined = options.sample ? { sample: options.sample, keyGroupsRead: covered.keyGroupsRead, keyGroupsWithData: covered.keyGroupsWithData } : undefined;
  const states = [...tallies.byState.values()].map(({ scan, ...st }) => (scan ? { ...st, protobuf: scan.finish() } : st));
  return { states, errors, ...(coverage ? { coverage } : {}), bytesRead: counter.bytes };
}

/**
 * The opened savepoint with the reads of state inline in `_metadata` counted (handle code 1: the
 * bytes lie in `_metadata`, read whole when it was opened; what the scan reads of them is state read).
 */
function countInlineStateReads(opened: OpenedSavepoint, counter: { bytes: number }): OpenedSavepoint {
  return {
    ...opened,
    resolveStreamHandle(handle, context) {
      const resolved = opened.resolveStreamHandle(handle, context);
      return handle.kind === 'inline' ? { ...resolved, source: countReads(resolved.source, counter) } : resolved;
    },
  };
}

function countReads(src: ByteSource, counter: { bytes: number }): ByteSource {
  const readInto = src.readInto?.bind(src);
  return {
    name: src.name,
    size: src.size,
    // what was read, counted once it arrived (a read that fails, e.g. past the end, reads nothing)
    read(offset, length) {
      return src.read(offset, length).then((bytes) => {
        counter.bytes += bytes.length;
        return bytes;
      });
    },
    ...(readInto === undefined
      ? {}
      : {
          readInto(offset: number, length: number, target: Uint8Array) {
            return readInto(offset, length, target).then((result) => {
              counter.bytes += length;
              return result;
            });
          },
        }),
  };
}

/** The input with its state-file reads counted (the reads of `_metadata` itself are not: see countInlineStateReads). */
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
    resolveAbsolute(absolutePath, recordedSize) {
      const found = input.resolveAbsolute?.(absolutePath, recordedSize);
      if (!found) return undefined;
      const key = `\u0000${found.path}`;
      let w = cache.get(key);
      if (!w) cache.set(key, (w = wrap(found.source)));
      return { ...found, source: w };
    },
  };
}
