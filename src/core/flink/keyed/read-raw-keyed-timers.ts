/**
 * Timers that Flink's heap timer service wrote to an operator's raw keyed state (issue #36): Flink 1.8–1.9 with
 * RocksDB and heap timers (the default there) keeps them out of the managed keyed state, in the raw keyed
 * state stream of each subtask. Facts from Flink's sources (docs/flink-formats.md):
 *
 * - the stream has no header; each key group of the handle's range starts at its offset and holds one
 *   `InternalTimerServiceSerializationProxy` (a PostVersionedIOReadableWritable): the magic bytes `F1 CD 85 9F`,
 *   `i32` version (2), `i32` number of timer services, then per service its `utf` name, the key and the
 *   namespace serializer snapshots (`utf` class, `i32` version, content: TypeSerializerSnapshot.writeVersionedSnapshot),
 *   `i32` event-time timer count, the timers, `i32` processing-time timer count, the timers;
 * - a timer (`LegacyTimerSerializer`): the key, the namespace, the `i64` timestamp (no flipped sign bit, unlike
 *   the TimerSerializer of managed timer state).
 *
 * Version 1 (Java-serialized serializers and their config snapshots) and raw keyed state written by something
 * other than the timer service are named, not read.
 */
import { ByteReader, DecodeError } from '../../io';
import type { KeyedStateHandle, OperatorState, SubtaskState } from '../metadata/metadata-types';
import type { StateEntry, StateMetaInfo } from '../savepoint/inspection-types';
import type { OpenedSavepoint } from '../savepoint/open-savepoint';
import { readNestedSerializerSnapshot } from '../snapshots/read-serializer-snapshot';
import type { DecodedValue, SerializerSnapshot, SnapshotRegistry, ValueCodec } from '../snapshots/snapshot-types';

const MAGIC = [0xf1, 0xcd, 0x85, 0x9f] as const;
/** The proxy version this reader reads (Flink 1.7–1.9; the later ones write timers as managed keyed state). */
export const TIMER_PROXY_VERSION = 2;
/** Binary class name of the serializer Flink writes these timers with. */
export const LEGACY_TIMER_SERIALIZER = 'org.apache.flink.streaming.api.operators.InternalTimersSnapshotReaderWriters$LegacyTimerSerializer';

/** One timer service's timers of one key group. */
export interface RawTimerService {
  name: string;
  keySerializer: SerializerSnapshot;
  namespaceSerializer: SerializerSnapshot;
  event: RawTimer[];
  processing: RawTimer[];
}

export interface RawTimer {
  key: DecodedValue;
  namespace: DecodedValue;
  /** the timestamp, as a decimal string (an `i64`) */
  timestamp: string;
  /** absolute position and length of the timer's bytes */
  offset: number;
  length: number;
}

/** The name of the state a timer service's timers of one time domain are listed as (Flink's own name for heap timer state). */
export function rawTimerStateName(service: string, domain: 'event' | 'processing'): string {
  return `_timer_state/${domain}_${service}`;
}

/**
 * Decodes one key group's timer services from `r` (at the key group's first byte) to the end of `r`.
 * Throws a located DecodeError for bytes that are not a timer service snapshot (unsupported-format), an
 * unsupported version, and corrupt or truncated content.
 */
export function decodeKeyGroupTimers(r: ByteReader, registry: SnapshotRegistry): RawTimerService[] {
  const at = r.position;
  r.require(4, 'the timer service snapshot magic bytes');
  const magic = [r.readU8('magic byte'), r.readU8('magic byte'), r.readU8('magic byte'), r.readU8('magic byte')];
  if (magic.some((b, i) => b !== MAGIC[i])) {
    const hex = magic.map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(' ');
    throw r.error(
      'unsupported-format',
      `expected a timer service snapshot (magic bytes F1 CD 85 9F) at the start of the key group's raw keyed state, found ${hex}: raw keyed state that Flink's timer service did not write is not read here`,
      at,
    );
  }
  const versionAt = r.position;
  const version = r.readI32('timer service snapshot version');
  if (version !== TIMER_PROXY_VERSION) {
    const why = version === 1 ? ' (version 1 holds Java-serialized key and namespace serializers, which are not read here)' : '';
    throw r.error('unsupported-version', `expected timer service snapshot version ${TIMER_PROXY_VERSION}, found ${version}${why}`, versionAt);
  }
  const count = r.readCount('timer services', 2);
  const services: RawTimerService[] = [];
  for (let i = 0; i < count; i++) {
    const name = r.readUtf('timer service name');
    const sr = r.withPath(`timer service ${name}`);
    const keySerializer = readNestedSerializerSnapshot(sr, registry);
    const namespaceSerializer = readNestedSerializerSnapshot(sr, registry);
    const event = readTimers(sr, keySerializer, namespaceSerializer, name, 'event-time');
    const processing = readTimers(sr, keySerializer, namespaceSerializer, name, 'processing-time');
    r.syncFrom(sr);
    services.push({ name, keySerializer, namespaceSerializer, event, processing });
  }
  if (!r.atEnd)
    throw r.error('invalid-value', `expected the key group's timer service snapshot to end at its next key group, found ${r.remaining} bytes after it`);
  return services;
}

function readTimers(r: ByteReader, key: SerializerSnapshot, namespace: SerializerSnapshot, service: string, domain: string): RawTimer[] {
  const n = r.readCount(`${domain} timers`, 8);
  if (n === 0) return [];
  const keyCodec = requireCodec(r, key, 'key', service);
  const nsCodec = requireCodec(r, namespace, 'namespace', service);
  const out: RawTimer[] = [];
  for (let i = 0; i < n; i++) {
    const at = r.absolutePosition;
    const k = keyCodec.decode(r);
    const ns = nsCodec.decode(r);
    const timestamp = r.readI64(`${domain} timer timestamp`).toString();
    out.push({ key: k, namespace: ns, timestamp, offset: at, length: r.absolutePosition - at });
  }
  return out;
}

function requireCodec(r: ByteReader, s: SerializerSnapshot, role: string, service: string): ValueCodec {
  if (s.codec !== undefined) return s.codec;
  const why = s.status === 'unknown' ? `an unknown snapshot (${s.className} v${s.version})` : `${s.typeLabel}, which has no value decoder`;
  throw r.error(
    'unsupported-format',
    `expected a decodable ${role} serializer for the timers of timer service ${service}, found ${why}; timers have no lengths, so this key group cannot be read further`,
  );
}

/** A subtask's raw keyed timers: the services (serializers from their first key group) and the entries, in key-group order. */
export interface SubtaskRawTimers {
  /** the states the services are listed as (event and processing time per service), in order of first appearance */
  states: { meta: StateMetaInfo; keySerializer: SerializerSnapshot }[];
  /** one decoded key group at a time */
  keyGroups(): AsyncGenerator<{ keyGroup: number; entries: StateEntry[] }>;
  /** the file errors name */
  file: string;
  /** the key groups with data (in the handle's order) */
  keyGroupsWithData: readonly number[];
}

/**
 * The subtask's raw keyed state read as timers: undefined when it has none (or only empty key groups). The
 * first key group with data is read here (for the services and serializers); `keyGroups` reads each in turn
 * (`only`: just these key groups), one key group's bytes at a time.
 */
export async function readSubtaskRawTimers(
  opened: OpenedSavepoint,
  op: OperatorState,
  subtask: SubtaskState,
  registry: SnapshotRegistry,
): Promise<(SubtaskRawTimers & { only(keyGroups: (kg: number) => boolean): SubtaskRawTimers }) | undefined> {
  const handle = subtask.rawKeyedState;
  if (handle === null || handle.kind !== 'key-groups' || handle.delegate === null) {
    if (handle !== null && handle.kind !== 'key-groups')
      throw new DecodeError({
        code: 'unsupported-format',
        detail: `expected raw keyed state in a key-groups handle, found a ${handle.kind} handle`,
        file: opened.metadataFile,
        path: [`operator ${op.id}`, `subtask ${subtask.index}`, 'raw keyed state'],
      });
    return undefined;
  }
  const resolved = opened.resolveStreamHandle(handle.delegate, { operatorId: op.id, subtask: subtask.index, role: 'raw keyed state' });
  const blocks = listBlocks(handle, resolved.source.size);
  if (blocks.length === 0) return undefined;
  const path = [`operator ${op.id}`, `subtask ${subtask.index}`, 'raw keyed state'];
  const decode = async (b: Block): Promise<RawTimerService[]> => {
    const bytes = await resolved.source.read(b.start, b.end - b.start);
    const r = new ByteReader(bytes, { file: resolved.file, baseOffset: resolved.baseOffset + b.start, path: [...path, `key group ${b.keyGroup}`] });
    return decodeKeyGroupTimers(r, registry);
  };
  const first = await decode(blocks[0]!);
  const states: SubtaskRawTimers['states'] = [];
  for (const s of first)
    for (const domain of ['event', 'processing'] as const)
      states.push({
        keySerializer: s.keySerializer,
        meta: {
          name: rawTimerStateName(s.name, domain),
          backendStateType: 'PRIORITY_QUEUE',
          kind: 'PRIORITY_QUEUE',
          options: { source: 'raw keyed state' },
          serializers: { VALUE_SERIALIZER: legacyTimerSnapshot(s.keySerializer, s.namespaceSerializer) },
        },
      });
  const make = (wanted: (kg: number) => boolean): SubtaskRawTimers => ({
    states,
    file: resolved.file,
    keyGroupsWithData: blocks.map((b) => b.keyGroup),
    async *keyGroups() {
      for (const b of blocks) {
        if (!wanted(b.keyGroup)) continue;
        const services = b === blocks[0] ? first : await decode(b);
        const entries: StateEntry[] = [];
        for (const s of services)
          for (const domain of ['event', 'processing'] as const)
            for (const t of s[domain])
              entries.push({
                operatorId: op.id,
                state: rawTimerStateName(s.name, domain),
                subtask: subtask.index,
                keyGroup: b.keyGroup,
                key: t.key,
                namespace: t.namespace,
                value: { kind: 'timer', timestamp: t.timestamp, key: t.key, namespace: t.namespace },
                file: resolved.file,
                valueRange: { offset: t.offset, length: t.length },
              });
        yield { keyGroup: b.keyGroup, entries };
      }
    },
  });
  return { ...make(() => true), only: make };
}

interface Block {
  keyGroup: number;
  start: number;
  end: number;
}

/** Each key group's bytes: from its offset to the next larger offset (or the stream's end); empty ones are left out. */
function listBlocks(handle: Extract<KeyedStateHandle, { kind: 'key-groups' }>, size: number): Block[] {
  const starts = handle.offsets.map((start, i) => ({ keyGroup: handle.range.start + i, start })).filter((b) => b.start >= 0 && b.start < size);
  const sorted = [...new Set(starts.map((b) => b.start))].sort((a, b) => a - b);
  return starts
    .map((b) => ({ ...b, end: sorted.find((s) => s > b.start) ?? size }))
    .filter((b, i, all) => all.findIndex((o) => o.start === b.start) === i && b.end > b.start);
}

/** The snapshot-like description of the timers' serializer (Flink records none for raw keyed state). */
function legacyTimerSnapshot(key: SerializerSnapshot, namespace: SerializerSnapshot): SerializerSnapshot {
  return {
    className: LEGACY_TIMER_SERIALIZER,
    version: TIMER_PROXY_VERSION,
    typeLabel: `Timer<${key.typeLabel}, ${namespace.typeLabel}>`,
    status: key.status === 'unknown' || namespace.status === 'unknown' ? 'unknown' : 'known',
    nested: [key, namespace],
    fixedLength: -1,
  };
}
