import { describeEntryKey } from '../core/compat';
import { readStateEntries, type CancelSignal, type DecodedValue, type OpenedSavepoint, type SnapshotRegistry, type StateEntry } from '../core/flink';
import type { SavepointFiles } from '../core/io';
import { ALIASING_THRESHOLD_BYTES, buildProtobufScanIndex, createProtobufStateScan, type ProtobufStateScan } from '../core/protobuf';
import type { CapturedProtobufValue, StoredProtobufValue } from './capture-protobuf-values';
import type { DistributionBucket, EntryProtobufValue, EntryRow, ProtobufStateStats, SizeBin, StateStats, UnknownFieldStat } from './inspector';
import { summarizeDecodedValue } from './summarize-decoded-value';

/** Entries kept per scanned state; a larger state is scanned up to here and marked truncated. */
export const MAX_SCANNED_ENTRIES = 2_000_000;
const MAX_EXAMPLES = 5;
const MAX_LARGE_PAYLOADS = 50;

export interface ScannedState {
  rows: EntryRow[];
  /** the entries, with the JSON of Protobuf values dropped (the detail view decodes the frame again) */
  entries: StateEntry[];
  values: StoredProtobufValue[][];
  stats: StateStats;
}

/**
 * Reads every entry of one state once: table rows, the entries, their Protobuf values (captured by
 * the registry's capturing codec, see capture-protobuf-values.ts), and the statistics the State,
 * Unknown fields and Aliasing views show.
 */
export async function scanStateEntries(
  files: SavepointFiles,
  opened: OpenedSavepoint,
  registry: SnapshotRegistry,
  captured: CapturedProtobufValue[],
  query: { operatorId: string; state: string },
  signal: CancelSignal,
): Promise<ScannedState> {
  const rows: EntryRow[] = [];
  const entries: StateEntry[] = [];
  const values: StoredProtobufValue[][] = [];
  const byKeyGroup = new Map<number, DistributionBucket>();
  const bySubtask = new Map<number, DistributionBucket>();
  const proto = new ProtobufAccumulator();
  let truncated = false;
  captured.length = 0;
  for await (const entry of readStateEntries(files, registry, { operatorId: query.operatorId, state: query.state, opened, signal })) {
    if (entries.length >= MAX_SCANNED_ENTRIES) {
      truncated = true;
      break;
    }
    const mine = captured.splice(0, captured.length);
    const index = entries.length;
    const key = describeEntryKey(entry.key, entry.userKey);
    const unknown = mine.reduce((n, v) => n + v.detail.unknownFields.length, 0);
    const size = entry.valueRange.length;
    rows.push({
      index,
      subtask: entry.subtask,
      keyGroup: entry.keyGroup,
      ...(entry.key ? { key: summarizeDecodedValue(entry.key) } : {}),
      ...(entry.namespace ? { namespace: summarizeDecodedValue(entry.namespace) } : {}),
      ...(entry.userKey ? { userKey: summarizeDecodedValue(entry.userKey) } : {}),
      value: summarizeDecodedValue(entry.value),
      size,
      unknownFields: unknown,
    });
    entries.push(lightenEntry(entry));
    values.push(mine.map((v) => ({ frame: v.frame, frameOffset: v.frameOffset, file: entry.file, codec: v.codec })));
    bump(byKeyGroup, entry.keyGroup, size);
    bump(bySubtask, entry.subtask, size);
    for (const v of mine) proto.add(v, key, index);
  }
  const sorted = (m: Map<number, DistributionBucket>) => [...m.values()].sort((a, b) => a.id - b.id);
  return {
    rows,
    entries,
    values,
    stats: { operatorId: query.operatorId, state: query.state, entries: entries.length, truncated, byKeyGroup: sorted(byKeyGroup), bySubtask: sorted(bySubtask), protobuf: proto.finish() },
  };
}

/** The entry without the JSON views of its Protobuf values (kept per entry, they would dominate memory). */
function lightenEntry(entry: StateEntry): StateEntry {
  return entry.value === null ? entry : { ...entry, value: lightenValue(entry.value) };
}

function lightenValue(v: DecodedValue): DecodedValue {
  switch (v.kind) {
    case 'message':
      return { ...v, json: null };
    case 'list':
      return { ...v, items: v.items.map(lightenValue) };
    case 'ttl':
      return { ...v, value: lightenValue(v.value) };
    default:
      return v;
  }
}

function bump(m: Map<number, DistributionBucket>, id: number, bytes: number): void {
  const b = m.get(id) ?? { id, entries: 0, bytes: 0 };
  b.entries++;
  b.bytes += bytes;
  m.set(id, b);
}

/** Unknown-field counts, the payload-size histogram, the largest payloads and the protobuf module's scan. */
class ProtobufAccumulator {
  private scan: ProtobufStateScan | null = null;
  private first: CapturedProtobufValue | null = null;
  private values = 0;
  private withUnknown = 0;
  private readonly unknown = new Map<string, UnknownFieldStat>();
  private readonly sizes: number[] = [];
  private readonly large: { key: string; entryIndex: number; payloadSize: number }[] = [];

  add(v: CapturedProtobufValue, key: string, entryIndex: number): void {
    if (this.first === null) {
      this.first = v;
      const s = v.content.settings;
      this.scan = createProtobufStateScan(buildProtobufScanIndex(v.content.schema.root), {
        maxMessageSize: s.maxMessageSize,
        recursionLimit: s.recursionLimit,
        root: v.content.schema.root,
      });
    }
    this.scan!.addPayload(v.frame.subarray(4), key, v.detail.payloadSize);
    this.values++;
    this.sizes.push(v.detail.payloadSize);
    if (v.detail.payloadSize > ALIASING_THRESHOLD_BYTES) this.large.push({ key, entryIndex, payloadSize: v.detail.payloadSize });
    if (v.detail.unknownFields.length > 0) this.withUnknown++;
    const seen = new Set<string>();
    for (const u of v.detail.unknownFields) {
      const message = u.path === '' ? v.detail.typeName : u.path;
      const k = `${message}|${u.number}|${u.wireType}`;
      const stat = this.unknown.get(k) ?? { message, number: u.number, wireType: u.wireType, occurrences: 0, values: 0, bytes: 0, examples: [] };
      stat.occurrences++;
      stat.bytes += u.length;
      if (!seen.has(k)) {
        seen.add(k);
        stat.values++;
        if (stat.examples.length < MAX_EXAMPLES) stat.examples.push(key);
      }
      this.unknown.set(k, stat);
    }
  }

  finish(): ProtobufStateStats | null {
    if (this.first === null || this.scan === null) return null;
    const c = this.first.content;
    return {
      typeName: c.rootFullName,
      javaClass: c.javaClass,
      settings: { maxMessageSize: c.settings.maxMessageSize, recursionLimit: c.settings.recursionLimit, deterministic: c.settings.deterministic },
      values: this.values,
      valuesWithUnknownFields: this.withUnknown,
      unknownFields: [...this.unknown.values()].sort((a, b) => b.values - a.values || a.number - b.number),
      histogram: buildSizeHistogram(this.sizes),
      largePayloads: this.large.sort((a, b) => b.payloadSize - a.payloadSize).slice(0, MAX_LARGE_PAYLOADS),
      summary: this.scan.finish(),
    };
  }
}

/** Power-of-two bins ([0,1), [1,2), [2,4) … ), so 4 KiB is always a bin edge. */
export function buildSizeHistogram(sizes: readonly number[]): SizeBin[] {
  if (sizes.length === 0) return [];
  const binOf = (n: number) => (n <= 0 ? 0 : Math.floor(Math.log2(n)) + 1);
  const max = sizes.reduce((m, n) => (n > m ? n : m), 0);
  const last = Math.max(binOf(max), binOf(ALIASING_THRESHOLD_BYTES) + 1);
  const bins: SizeBin[] = [];
  for (let b = 0; b <= last; b++) bins.push({ from: b === 0 ? 0 : 2 ** (b - 1), to: b === 0 ? 1 : 2 ** b, count: 0 });
  for (const n of sizes) bins[binOf(n)].count++;
  return bins;
}

/** A captured value as the detail pane needs it: offsets relative to the frame, no aliasing views. */
export function toEntryProtobufValue(v: CapturedProtobufValue): EntryProtobufValue {
  const base = v.frameOffset;
  return {
    typeName: v.detail.typeName,
    frame: v.frame,
    frameOffset: v.frameOffset,
    payloadSize: v.detail.payloadSize,
    depth: v.detail.depth,
    json: v.detail.json,
    unknownFields: v.detail.unknownFields.map((u) => ({ path: u.path, number: u.number, wireType: u.wireType, offset: u.offset - base, length: u.length })),
    fieldRanges: v.detail.fieldRanges.map((f) => ({ path: f.path, number: f.number, known: f.known, offset: f.offset - base, length: f.length })),
  };
}
