/**
 * The structural scan behind the value warnings: streams one state's entries with a snapshot
 * registry whose Protobuf codec also records, per decoded value, its size, depth, unknown fields
 * and present known fields (the protobuf module's protobuf-java-semantics decoder).
 */
import { ScalarType } from '@bufbuild/protobuf';
import { createEntryValueMatcher, readStateEntryRuns, type CancelSignal, type DecodedValue, type OpenedSavepoint, type SnapshotRegistry } from '../flink';
import type { SavepointFiles } from '../io';
import { registerWrappedProtobufSnapshotReaders, toMessageValue, walkMessages, type ProtobufValueDetail } from '../protobuf';
import type { ScannedField, ScannedValue } from './value-scan-types';

export interface ScanStateOptions {
  operatorId: string;
  /** one state, or several of the operator scanned in one pass (onValue tells them apart) */
  state: string | readonly string[];
  /** stop after this many entries (default: all) */
  limit?: number;
  signal?: CancelSignal;
  opened?: OpenedSavepoint;
  /** scan only these subtasks (by index) */
  subtasks?: readonly number[];
  /** receives every scanned value instead of the result keeping them all (bounded memory) */
  /** `schema`: identifyProtobufSchema of the type the value was read with, when the reader recorded it */
  onValue?: (value: ScannedValue, state: string, schema: string | undefined) => void;
}

export interface ScanResult {
  /** every scanned value, unless `onValue` took them */
  values: ScannedValue[];
  /** Protobuf values scanned */
  scannedValues: number;
  entries: number;
}

/** Registers recording wrappers of the Protobuf snapshot readers into `registry`; recorded values go to `sink`. */
export function registerRecordingProtobufReaders(registry: SnapshotRegistry, sink: (detail: ProtobufValueDetail) => void): void {
  registerWrappedProtobufSnapshotReaders(registry, (inner) => ({
    decode(r) {
      const d = inner.decodeDetailed(r);
      sink(d);
      return toMessageValue(d);
    },
  }));
}

/**
 * `pending` is where the registry's codec puts each value it reads (registerRecordingProtobufReaders:
 * full decodes; registerValueScanningReaders: structural scans); this attaches the entry's key to them.
 */
export async function scanProtobufStateValues(
  files: SavepointFiles,
  registry: SnapshotRegistry,
  pending: (ProtobufValueDetail | (Omit<ScannedValue, 'key'> & { frameOffset: number; file: string | undefined; schema?: string }))[],
  options: ScanStateOptions,
): Promise<ScanResult> {
  const values: ScannedValue[] = [];
  const take = options.onValue ?? ((v: ScannedValue) => void values.push(v));
  let entries = 0;
  let scannedValues = 0;
  const matcher = createEntryValueMatcher(pending, (item) => item.frameOffset, (item) => item.file);
  // operator list/union elements have no key: name them by subtask and position (in their state) instead
  const elementsPerSubtask = new Map<string, number>();
  matcher.reset();
  // one async step per key-group block, not per entry (readStateEntryRuns)
  for await (const run of readStateEntryRuns(files, registry, {
    operatorId: options.operatorId,
    state: options.state,
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.opened ? { opened: options.opened } : {}),
    ...(options.subtasks ? { subtasks: options.subtasks } : {}),
  })) for (const entry of run) {
    entries++;
    const element = `${entry.state}\n${entry.subtask}`;
    const ordinal = elementsPerSubtask.get(element) ?? 0;
    elementsPerSubtask.set(element, ordinal + 1);
    const key = describeEntryKey(entry.key, entry.userKey, `subtask ${entry.subtask} element ${ordinal}`);
    // each entry takes the values inside its own value range of its stream (see createEntryValueMatcher)
    matcher.take(entry, (item) => {
      scannedValues++;
      if ('message' in item) take(summarizeProtobufValue(key, item), entry.state, undefined);
      else {
        take({ key, payloadSize: item.payloadSize, depth: item.depth, unknownFields: item.unknownFields, knownFields: item.knownFields }, entry.state, item.schema);
      }
    });
  }
  return { values, scannedValues, entries };
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
