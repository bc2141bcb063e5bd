/**
 * The stable JSON document of `inspect --json` (documented in docs/cli.md): fixed key order,
 * 64-bit numbers as decimal strings, serializers as their snapshot class plus a readable type.
 */
import type { SizeBreakdown } from '../../core/report';
import {
  getKryoSnapshotDetails,
  type CheckpointMetadata,
  type InspectedOperator,
  type InspectedState,
  type SavepointInspection,
  type SerializerSnapshot,
  type SubtaskState,
  type StreamHandle,
} from '../../core/flink';
import { describeProtobufSnapshots, DYNAMIC_MESSAGE_CLASS } from '../../core/protobuf';

export const INSPECT_DOCUMENT_VERSION = 1;

export interface InspectDocumentOptions {
  /** when given, each operator gets `subtasks` with its state handles from this `_metadata` */
  metadata?: CheckpointMetadata;
  /** where the bytes are (core/report's size breakdown), as `sizes` */
  sizes?: SizeBreakdown;
}

export function buildInspectDocument(inspection: SavepointInspection, options: InspectDocumentOptions = {}): Record<string, unknown> {
  const metadata = options.metadata;
  return {
    schemaVersion: INSPECT_DOCUMENT_VERSION,
    // the old name of the version field, kept for one release (docs/report-schema.md)
    documentVersion: INSPECT_DOCUMENT_VERSION,
    input: inspection.input,
    metadataVersion: inspection.metadataVersion,
    checkpointId: inspection.checkpointId,
    type: inspection.type,
    format: inspection.format,
    totalSize: inspection.totalSize,
    operators: inspection.operators.map((op) => describeOperator(op, metadata ? (metadata.operators.find((o) => o.id === op.id)?.subtasks ?? []) : undefined)),
    warnings: [...inspection.warnings],
    errors: inspection.errors.map((e) => ({ code: e.code, message: e.message, file: e.file ?? null, offset: e.offset ?? null, path: [...e.path] })),
    summary: { ...inspection.summary },
    // only when the savepoint holds connector state (issue #36): the documents of other savepoints are unchanged
    ...(inspection.sourcesAndSinks ? { sourcesAndSinks: inspection.sourcesAndSinks } : {}),
    ...(options.sizes ? { sizes: options.sizes } : {}),
  };
}

function describeOperator(op: InspectedOperator, subtasks: SubtaskState[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: op.id,
    name: op.name ?? null,
    uid: op.uid ?? null,
    parallelism: op.parallelism,
    maxParallelism: op.maxParallelism,
    fullyFinished: op.fullyFinished,
    subtaskCount: op.subtaskCount,
    stateSize: op.stateSize,
    keyedFormat: op.keyedFormat,
    states: [...op.states].sort(compareStates).map(describeState),
    warnings: [...op.warnings],
    streamsNotRead: op.streamsNotRead.map((n) => ({ subtask: n.subtask, scope: n.scope, reason: n.reason })),
  };
  if (subtasks) out['subtasks'] = [...subtasks].sort((a, b) => a.index - b.index).map(describeSubtask);
  return out;
}

function compareStates(a: InspectedState, b: InspectedState): number {
  return a.scope === b.scope ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.scope < b.scope ? -1 : 1;
}

function describeState(s: InspectedState): Record<string, unknown> {
  return {
    name: s.name,
    scope: s.scope,
    kind: s.kind,
    backendStateType: s.backendStateType,
    status: s.status,
    statusReason: s.statusReason ?? null,
    keySerializer: s.keySerializer?.className ?? null,
    keyType: s.keySerializer?.typeLabel ?? null,
    namespaceSerializer: s.namespaceSerializer?.className ?? null,
    namespaceType: s.namespaceSerializer?.typeLabel ?? null,
    valueSerializer: s.valueSerializer?.className ?? null,
    valueType: s.valueSerializer?.typeLabel ?? null,
    valueSerializerStatus: serializerStatus(s.valueSerializer),
    subtasks: [...s.subtasks],
    entries: s.entries ?? null,
    protobuf: describeProtobuf(s),
    kryo: describeKryo(s.valueSerializer),
    avro: describeAvro(s.valueSerializer),
    decoded: s.decoded ?? null,
    decodedReason: s.decodedReason ?? null,
    incomplete: s.incomplete ?? null,
  };
}

/** The Protobuf serializer snapshots of a state (value, or nested in Map/List/TTL), null when none. */
function describeProtobuf(s: InspectedState): Record<string, unknown>[] | null {
  const found = describeProtobufSnapshots(s.valueSerializer);
  if (found.length === 0) return null;
  // a snapshot read by structure: its Java class only when one was found, its settings never (null), and what was read where
  return found.map((p) => ({
    javaClass: p.inferred && p.javaClass === DYNAMIC_MESSAGE_CLASS ? null : p.javaClass,
    rootFullName: p.rootFullName,
    settings: p.inferred
      ? null
      : { deterministic: p.settings.deterministic, maxMessageSize: p.settings.maxMessageSize, recursionLimit: p.settings.recursionLimit },
    descriptorFiles: [...p.descriptorFiles],
    descriptorSha256: p.descriptorSha256,
    ...(p.inferred ? { inferred: { by: p.inferred.by, read: p.inferred.read.map((r) => ({ ...r })), notRead: [...p.inferred.notRead] } } : {}),
  }));
}

/**
 * The Kryo serializer snapshots of a state's value serializer (directly or nested in Map/List/TTL/POJO), null when
 * none: type class, every registration with its kind and serializer class, the default serializers and default
 * serializer classes, and whether the values are Protobuf behind Kryo.
 */
function describeKryo(root: SerializerSnapshot | undefined): Record<string, unknown>[] | null {
  const out: Record<string, unknown>[] = [];
  const visit = (s: SerializerSnapshot, path: string, depth: number) => {
    const kryo = getKryoSnapshotDetails(s);
    if (kryo) {
      const protobuf = s.details?.['protobuf'] as { kind: string; how: string; serializerClass?: string; messageType?: string } | undefined;
      out.push({
        path,
        typeClass: kryo.typeClass,
        registrations: kryo.registrations.map((r) => ({
          name: r.name,
          registeredClass: r.registeredClass ?? null,
          kind: r.kind ?? null,
          serializerClass: r.serializerClass ?? null,
        })),
        defaultSerializers: kryo.defaultSerializers.map((d) => ({ forClass: d.forClass, serializerClass: d.serializerClass ?? null })),
        defaultSerializerClasses: kryo.defaultSerializerClasses.map((d) => ({ forClass: d.forClass, serializerClass: d.serializerClass ?? null })),
        protobuf: protobuf
          ? {
              kind: protobuf.kind,
              how: protobuf.how,
              serializerClass: protobuf.serializerClass ?? null,
              messageType: protobuf.messageType ?? null,
              decodable: s.codec !== undefined,
            }
          : null,
      });
    }
    if (depth < 64) s.nested.forEach((n, i) => visit(n, `${path}/${i}`, depth + 1));
  };
  if (root) visit(root, 'VALUE_SERIALIZER', 0);
  return out.length > 0 ? out : null;
}

/**
 * The Avro serializer snapshots (flink-avro) of a state's value serializer, directly or nested, null when none: the
 * writer schema as saved, its record (or type) name, the runtime class; Avro schema evolution is not checked.
 */
function describeAvro(root: SerializerSnapshot | undefined): Record<string, unknown>[] | null {
  const out: Record<string, unknown>[] = [];
  const visit = (s: SerializerSnapshot, path: string, depth: number) => {
    if (s.details?.['format'] === 'avro')
      out.push({
        path,
        record: s.details['recordName'] ?? null,
        runtimeType: s.details['runtimeType'] ?? null,
        schema: s.details['schema'] ?? null,
        schemaEvolution: 'not checked',
      });
    if (depth < 64) s.nested.forEach((n, i) => visit(n, `${path}/${i}`, depth + 1));
  };
  if (root) visit(root, 'VALUE_SERIALIZER', 0);
  return out.length > 0 ? out : null;
}

function serializerStatus(s: SerializerSnapshot | undefined): string | null {
  return s?.status ?? null;
}

function describeSubtask(s: SubtaskState): Record<string, unknown> {
  const operatorHandle = (h: SubtaskState['managedOperatorState']) =>
    h === null
      ? null
      : { code: h.code, states: h.states.map((e) => ({ name: e.name, mode: e.mode, offsets: [...e.offsets] })), data: describeStreamHandle(h.delegate) };
  const keyedHandle = (h: SubtaskState['managedKeyedState']) => {
    if (h === null) return null;
    const range = { start: h.range.start, end: h.range.end };
    if (h.kind === 'key-groups') return { code: h.code, kind: h.kind, keyGroups: range, data: describeStreamHandle(h.delegate) };
    if (h.kind === 'incremental') {
      const file = (f: { localPath: string; handle: StreamHandle | null }, shared: boolean) => ({
        savedName: nameSavedFile(f.handle),
        rocksdbName: f.localPath,
        size: handleSize(f.handle),
        shared,
      });
      return {
        code: h.code,
        kind: h.kind,
        keyGroups: range,
        metaData: describeStreamHandle(h.metaData),
        sharedFiles: h.sharedFiles.length,
        privateFiles: h.privateFiles.length,
        files: [...h.sharedFiles.map((f) => file(f, true)), ...h.privateFiles.map((f) => file(f, false))],
      };
    }
    return { code: h.code, kind: h.kind, keyGroups: range, description: h.description };
  };
  return {
    index: s.index,
    finished: s.finished,
    managedOperatorState: operatorHandle(s.managedOperatorState),
    rawOperatorState: operatorHandle(s.rawOperatorState),
    managedKeyedState: keyedHandle(s.managedKeyedState),
    rawKeyedState: keyedHandle(s.rawKeyedState),
    inputChannelStates: s.inputChannelStateCount,
    resultSubpartitionStates: s.resultSubpartitionStateCount,
  };
}

/** Where a RocksDB file of an incremental handle is saved: the file name in the savepoint, `_metadata` for inline bytes, null when absent. */
function nameSavedFile(h: StreamHandle | null): string | null {
  if (h === null) return null;
  switch (h.kind) {
    case 'relative-file':
      return h.relativePath;
    case 'file':
      return h.path;
    case 'segment-file':
      return h.physicalPath;
    case 'inline':
      return '_metadata';
    case 'legacy-key-groups':
      return nameSavedFile(h.delegate);
    case 'empty-segment':
      return null;
  }
}

function handleSize(h: StreamHandle | null): number | null {
  if (h === null || h.kind === 'empty-segment') return null;
  if (h.kind === 'legacy-key-groups') return handleSize(h.delegate);
  return h.size;
}

export function describeStreamHandle(h: StreamHandle | null): Record<string, unknown> | null {
  if (h === null) return null;
  switch (h.kind) {
    case 'inline':
      return { code: 1, kind: h.kind, name: h.name, size: h.size, offset: h.offset };
    case 'file':
      return { code: 2, kind: h.kind, path: h.path, size: h.size };
    case 'legacy-key-groups':
      return { code: 3, kind: h.kind, data: describeStreamHandle(h.delegate) };
    case 'relative-file':
      return { code: 6, kind: h.kind, path: h.relativePath, size: h.size };
    case 'segment-file':
      return { code: 15, kind: h.kind, path: h.physicalPath, start: h.start, size: h.size, scope: h.scope };
    case 'empty-segment':
      return { code: 16, kind: h.kind };
  }
}
