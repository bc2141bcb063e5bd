/**
 * The values behind the value warnings: one state's (or several states' of one operator) saved
 * Protobuf values, read with scanState in `frame` mode and summarized per value (size, depth,
 * unknown and present known fields) by the structural scan with a field log. A value the log cannot
 * mirror exactly — unreadable, written out of order or with reused numbers, a field number above the
 * limit, or any value of a schema with closed enums — is read by the full decoder instead, so the
 * warnings are the decoder's. `read: 'decode'` reads every value with the full decoder (the reference
 * the structural summaries are tested against).
 */
import { ScalarType, type DescMessage } from '@bufbuild/protobuf';
import { scanState, type CancelSignal, type DecodedValue, type OpenedSavepoint, type SnapshotRegistry, type SubtaskHeaderCache } from '../../flink';
import { ByteReader, isDecodeError } from '../../io';
import {
  buildProtobufScanIndex,
  createEmptyScan,
  createProtobufFieldLog,
  listLoggedFields,
  listProtobufFrames,
  scanProtobufPayloadInto,
  walkMessages,
  type ProtobufFrameValue,
  type ProtobufScanIndex,
  type ProtobufScanOptions,
  type ProtobufValueCodec,
  type ProtobufValueDetail,
} from '../../protobuf';
import { identifyProtobufSchema } from './identify-protobuf-schema';
import type { ScannedField, ScannedValue } from '../value-scan-types';

export interface ScanStateOptions {
  operatorId: string;
  /** one state, or several of the operator scanned in one pass (onValue tells them apart) */
  state: string | readonly string[];
  /** at most this many entries of each state (default: all) */
  limit?: number;
  signal?: CancelSignal;
  /** scan only these subtasks (by index) */
  subtasks?: readonly number[];
  /** a key-group shard: only these key groups of keyed state, operator state as `operatorState` says (StateScanSelection) */
  keyGroupRange?: { start: number; end: number };
  operatorState?: boolean;
  /** `scan` (default): the structural scan where it is exact; `decode`: the full decoder for every value */
  read?: 'scan' | 'decode';
  /** receives every scanned value instead of the result keeping them all (bounded memory); `schema`: identifyProtobufSchema of the type it was read with */
  onValue?: (value: ScannedValue, state: string, schema: string) => void;
  /** stream headers already read with `registry` (a SavepointSession's `headers`): not read again */
  headers?: SubtaskHeaderCache;
}

export interface ScanResult {
  /** every scanned value, unless `onValue` took them */
  values: ScannedValue[];
  /** Protobuf values scanned */
  scannedValues: number;
  entries: number;
}

export async function scanProtobufStateValues(opened: OpenedSavepoint, registry: SnapshotRegistry, options: ScanStateOptions): Promise<ScanResult> {
  const values: ScannedValue[] = [];
  const take = options.onValue ?? ((v: ScannedValue) => void values.push(v));
  const summarize = createValueSummarizer(options.read ?? 'scan');
  let entries = 0;
  let scannedValues = 0;
  // operator list/union elements have no key: name them by subtask and position (in their state) instead
  const elementsPerSubtask = new Map<string, number>();
  await scanState(
    opened,
    registry,
    {
      operatorId: options.operatorId,
      states: options.state,
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
      ...(options.subtasks ? { subtasks: options.subtasks } : {}),
      ...(options.keyGroupRange ? { keyGroupRange: options.keyGroupRange } : {}),
      ...(options.operatorState === undefined ? {} : { operatorState: options.operatorState }),
    },
    {
      entry(entry) {
        entries++;
        const element = `${entry.state}\n${entry.subtask}`;
        const ordinal = elementsPerSubtask.get(element) ?? 0;
        elementsPerSubtask.set(element, ordinal + 1);
        const frames = listProtobufFrames(entry.value);
        if (frames.length === 0) return;
        const key = describeEntryKey(entry.key, entry.userKey, `subtask ${entry.subtask} element ${ordinal}`);
        for (const frame of frames) {
          const summary = summarize(frame);
          if (summary === undefined) continue;
          scannedValues++;
          take({ key, ...summary.value }, entry.state, summary.schema);
        }
      },
    },
    { values: { mode: 'frame' }, ...(options.signal ? { signal: options.signal } : {}), ...(options.headers ? { headers: options.headers } : {}) },
  );
  return { values, scannedValues, entries };
}

/**
 * What the value warnings take from one frame (undefined for a value the full decoder cannot read:
 * a frame only locates a value, so a corrupt payload shows here and counts as not scanned).
 */
function createValueSummarizer(read: 'scan' | 'decode'): (frame: ProtobufFrameValue) => { value: Omit<ScannedValue, 'key'>; schema: string } | undefined {
  const perCodec = new Map<ProtobufValueCodec, { index: ProtobufScanIndex; exact: boolean; schema: string; options: ProtobufScanOptions }>();
  const byRoot = new Map<DescMessage, { index: ProtobufScanIndex; exact: boolean }>();
  const out = createEmptyScan();
  const log = createProtobufFieldLog();
  return (frame) => {
    const codec = frame.codec;
    let c = perCodec.get(codec);
    if (c === undefined) {
      const content = codec.content;
      const root = content.schema.root;
      let scan = byRoot.get(root);
      if (scan === undefined) byRoot.set(root, (scan = { index: buildProtobufScanIndex(root), exact: read === 'scan' && !hasClosedEnums(root) }));
      perCodec.set(
        codec,
        (c = {
          ...scan,
          schema: identifyProtobufSchema(content),
          options: { maxMessageSize: content.settings.maxMessageSize, recursionLimit: content.settings.recursionLimit, fieldLog: log },
        }),
      );
    }
    if (c.exact) {
      c.options.frameLength = frame.length;
      scanProtobufPayloadInto(out, frame.bytes.subarray(frame.payloadStart, frame.end), c.index, c.options);
      if (out.error === undefined && !log.needsFullDecode && out.reusedDeclaredNumbers === 0 && out.numbersTooLarge === 0) {
        const fields = listLoggedFields(c.index, log);
        return { value: { payloadSize: out.payloadSize, depth: out.depth, unknownFields: fields.unknown, knownFields: fields.known }, schema: c.schema };
      }
    }
    let detail: ProtobufValueDetail;
    try {
      detail = codec.decodeDetailed(
        new ByteReader(frame.bytes.subarray(frame.start, frame.end), { ...(frame.file !== undefined ? { file: frame.file } : {}), baseOffset: frame.offset }),
      );
    } catch (e) {
      if (isDecodeError(e)) return undefined;
      throw e;
    }
    const { key: _key, ...value } = summarizeProtobufValue('', detail);
    return { value, schema: c.schema };
  };
}

export function summarizeProtobufValue(key: string, d: ProtobufValueDetail): ScannedValue {
  const unknown = new Map<string, ScannedField>();
  const known = new Map<string, ScannedField & { bytes?: boolean }>();
  walkMessages(d.message, '', (m) => {
    const message = m.desc.typeName;
    for (const u of m.unknown) unknown.set(`${message}|${u.number}|${u.wireType}`, { message, number: u.number, wireType: u.wireType });
    for (const fv of m.fields.values()) {
      const bytes = fv.field.fieldKind === 'scalar' && fv.field.scalar === ScalarType.BYTES;
      known.set(`${message}|${fv.field.number}`, { message, number: fv.field.number, wireType: 2, ...(bytes ? { bytes: true } : {}) });
    }
  });
  return { key, payloadSize: d.payloadSize, depth: d.depth, unknownFields: [...unknown.values()], knownFields: [...known.values()] };
}

/** Whether any message reachable from `root` has a field, list or map value of a closed enum. */
function hasClosedEnums(root: DescMessage): boolean {
  const seen = new Set<DescMessage>([root]);
  const queue = [root];
  for (let i = 0; i < queue.length; i++) {
    for (const f of queue[i]!.fields) {
      const closed =
        (f.fieldKind === 'enum' || (f.fieldKind === 'list' && f.listKind === 'enum') || (f.fieldKind === 'map' && f.mapKind === 'enum')) &&
        f.enum !== undefined &&
        !f.enum.open;
      if (closed) return true;
      const child =
        f.fieldKind === 'message' || (f.fieldKind === 'list' && f.listKind === 'message') || (f.fieldKind === 'map' && f.mapKind === 'message')
          ? f.message
          : undefined;
      if (child !== undefined && !seen.has(child)) {
        seen.add(child);
        queue.push(child);
      }
    }
  }
  return false;
}

/** Display text of a state key: `user-42`, `7 / "k"` (key / user key). */
export function describeEntryKey(key: DecodedValue | undefined, userKey: DecodedValue | undefined, keyless = '(no key)'): string {
  // called once per scanned value: no intermediate arrays
  if (key === undefined) return userKey === undefined ? keyless : describeDecodedValue(userKey);
  return userKey === undefined ? describeDecodedValue(key) : `${describeDecodedValue(key)} / ${describeDecodedValue(userKey)}`;
}

function describeDecodedValue(v: DecodedValue): string {
  switch (v.kind) {
    case 'string':
      return JSON.stringify(v.value);
    case 'int':
    case 'long':
    case 'boolean':
    case 'float':
      return String(v.value);
    case 'null':
      return 'null';
    default:
      return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
  }
}
