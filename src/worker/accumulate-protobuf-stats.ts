/**
 * A state's Protobuf statistics from the structural scan (scanProtobufPayloadInto through the
 * protobuf module's state scan): values, sizes, depth, aliasing memory, value findings, the size
 * histogram and the largest payloads. Unknown fields per (message, number, wire type) need the
 * full decoder, so only the values the scan found unknown fields in are decoded (one at a time,
 * nothing kept). Memory: the histogram, the unknown-field table with its examples, the 50 largest
 * payloads — never a value or a frame.
 */
import { describeScanFinding } from '../core/compat';
import { ByteReader } from '../core/io';
import {
  ALIASING_THRESHOLD_BYTES,
  createEmptyScan,
  createProtobufStateScan,
  getProtobufScanIndex,
  scanProtobufPayloadInto,
  type ProtobufFrameValue,
  type ProtobufScanIndex,
  type ProtobufScanOptions,
  type ProtobufStateScanSummary,
  type ProtobufStateScan,
  type ProtobufSnapshotContent,
} from '../core/protobuf';
import { SizeHistogram } from './build-size-histogram';
import type { ProtobufStateDetail, UnknownFieldStat } from './inspector';

const MAX_EXAMPLES = 5;
export const MAX_LARGE_PAYLOADS = 50;

export class ProtobufStatsAccumulator {
  private scan: ProtobufStateScan | null = null;
  private content: ProtobufSnapshotContent | null = null;
  private index: ProtobufScanIndex | null = null;
  private readonly options: ProtobufScanOptions = { maxMessageSize: 0, recursionLimit: 0 };
  private readonly out = createEmptyScan();
  private readonly unknown = new Map<string, UnknownFieldStat>();
  private readonly histogram = new SizeHistogram();
  private large: { key: string; entryIndex: number; payloadSize: number }[] = [];

  /** Adds one value read in `frame` mode (its bytes are a view, used only during this call); `key` is formatted only when an example needs it. */
  add(f: ProtobufFrameValue, key: () => string, entryIndex: number): void {
    if (this.scan === null) {
      const c = f.codec.content;
      this.content = c;
      this.index = getProtobufScanIndex(c.schema.root);
      this.options.maxMessageSize = c.settings.maxMessageSize;
      this.options.recursionLimit = c.settings.recursionLimit;
      this.options.root = c.schema.root;
      this.scan = createProtobufStateScan(this.index, {
        maxMessageSize: c.settings.maxMessageSize,
        recursionLimit: c.settings.recursionLimit,
        root: c.schema.root,
      });
    }
    this.options.frameLength = f.length;
    scanProtobufPayloadInto(this.out, f.bytes.subarray(f.payloadStart, f.end), this.index!, this.options);
    this.scan.addScan(this.out, key);
    this.histogram.add(f.length);
    if (f.length > ALIASING_THRESHOLD_BYTES) {
      this.large.push({ key: key(), entryIndex, payloadSize: f.length });
      if (this.large.length >= 4 * MAX_LARGE_PAYLOADS) this.large = largestFirst(this.large);
    }
    if (this.out.error === undefined && this.out.unknownFields > 0) this.addUnknownFields(f, key);
  }

  private addUnknownFields(f: ProtobufFrameValue, key: () => string): void {
    const detail = f.codec.decodeDetailed(new ByteReader(f.bytes.subarray(f.start, f.end), { baseOffset: f.offset }));
    const seen = new Set<string>();
    for (const u of detail.unknownFields) {
      const message = u.path === '' ? detail.typeName : u.path;
      const k = `${message}|${u.number}|${u.wireType}`;
      let stat = this.unknown.get(k);
      if (stat === undefined)
        this.unknown.set(k, (stat = { message, number: u.number, wireType: u.wireType, occurrences: 0, values: 0, bytes: 0, examples: [] }));
      stat.occurrences++;
      stat.bytes += u.length;
      if (!seen.has(k)) {
        seen.add(k);
        stat.values++;
        if (stat.examples.length < MAX_EXAMPLES) stat.examples.push(key());
      }
    }
  }

  /** The scan summary (StateStats.protobuf) and the details the views draw; null when no Protobuf value was added. */
  finish(): { summary: ProtobufStateScanSummary; detail: ProtobufStateDetail } | null {
    if (this.scan === null || this.content === null) return null;
    const c = this.content;
    const summary = this.scan.finish();
    return {
      summary,
      detail: {
        typeName: c.rootFullName,
        javaClass: c.javaClass,
        settings: { maxMessageSize: c.settings.maxMessageSize, recursionLimit: c.settings.recursionLimit, deterministic: c.settings.deterministic },
        unknownFields: [...this.unknown.values()].sort((a, b) => b.values - a.values || a.number - b.number),
        histogram: this.histogram.finish(),
        largePayloads: largestFirst(this.large),
        findings: summary.findings.map(describeScanFinding),
      },
    };
  }
}

function largestFirst(xs: { key: string; entryIndex: number; payloadSize: number }[]): { key: string; entryIndex: number; payloadSize: number }[] {
  return xs.sort((a, b) => b.payloadSize - a.payloadSize || a.entryIndex - b.entryIndex).slice(0, MAX_LARGE_PAYLOADS);
}
