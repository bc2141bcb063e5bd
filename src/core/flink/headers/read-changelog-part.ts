/**
 * The non-materialized part of a changelog keyed handle (code 8/14): the state changes recorded after
 * the materialized snapshot, in change handles of code 9 (in-memory, bytes inline in `_metadata`) or
 * 10/13 (change files). This reads every in-memory record in order (what a replay applies,
 * replay-changelog.ts) and lists every state they name: each in-memory change of key group -1 is a
 * META record
 *
 *     u8 operation METADATA (8 from Flink 1.15 on, 9 before: FLINK-26062 dropped REMOVE_FIRST_ELEMENT),
 *     i32 meta-info version, state meta info (as in the keyed header),
 *     then for key/value states bool TTL (a Java-serialized StateTtlConfig when true) + bool default
 *     value (the value serializer's bytes when true), i16 state id, u8 backend state type
 *
 * written before the first change of a state; the other changes (key group ≥ 0) are the data changes.
 * Change files are not opened: the states they alone name cannot be listed.
 */
import { ByteReader, isDecodeError, type DecodeError } from '../../io';
import type { KeyedStateHandle } from '../metadata/metadata-types';
import type { StateMetaInfo } from '../savepoint/inspection-types';
import type { OpenedSavepoint } from '../savepoint/open-savepoint';
import { createUnknownTopLevelSnapshot, describeUnknownSerializer, readSerializerSnapshot } from '../snapshots/read-serializer-snapshot';
import type { SerializerSnapshot, SnapshotRegistry } from '../snapshots/snapshot-types';
import { createStateMetaInfo, readStateMetaInfoPrefix } from './read-state-meta-info';
import { readJavaSerializedObject } from '../values/read-java-object-stream';
import type { ChangelogRecord } from '../keyed/decode-changelog-changes';

/** The operation code of a changelog META record (Flink ≥ 1.15; 9 in the writers before, CHANGELOG_LEGACY_METADATA_OPERATION). */
export const CHANGELOG_METADATA_OPERATION = 8;
export const CHANGELOG_LEGACY_METADATA_OPERATION = 9;
/** The key group of changelog records that are not data changes (META records). */
export const CHANGELOG_META_KEY_GROUP = -1;

export interface ChangelogPart {
  /** data changes (in-memory changes of a key group) and change files */
  dataChanges: number;
  changeFiles: number;
  /** the states the in-memory META records name, in record order (a state once) */
  states: StateMetaInfo[];
  /** every in-memory record, META and data, in order (the records of change files are not here) */
  records: ChangelogRecord[];
  /** the operation code of METADATA in the writer (8 from Flink 1.15 on, 9 before); 8 when no META record was read */
  metadataOperation: number;
  /** non-materialized handles that are not changelog handles */
  foreignHandles: number;
  warnings: string[];
}

export async function readChangelogPart(opened: OpenedSavepoint, handles: readonly KeyedStateHandle[], registry: SnapshotRegistry): Promise<ChangelogPart> {
  const part: ChangelogPart = {
    dataChanges: 0,
    changeFiles: 0,
    states: [],
    records: [],
    metadataOperation: CHANGELOG_METADATA_OPERATION,
    foreignHandles: 0,
    warnings: [],
  };
  const metadata = opened.files.metadata;
  for (const h of handles) {
    if (h.kind !== 'changelog') {
      part.warnings.push(`a ${h.kind} handle (code ${h.code}) among the changelog's non-materialized handles is not read`);
      part.foreignHandles++;
      continue;
    }
    part.changeFiles += h.files?.length ?? 0;
    for (const change of h.changes ?? []) {
      if (change.keyGroup !== CHANGELOG_META_KEY_GROUP) {
        part.dataChanges++;
        part.records.push({ kind: 'data', ...change });
        continue;
      }
      const bytes = await metadata.read(change.offset, change.length);
      const r = new ByteReader(bytes, { file: opened.metadataFile, baseOffset: change.offset });
      const name: { value?: string } = {};
      try {
        const meta = readMetaRecord(r, registry, name);
        if (!meta) {
          // only META records are written to the META key group: another operation there is a lost META record
          const e = r.error(
            'invalid-value',
            `expected the METADATA operation (${CHANGELOG_METADATA_OPERATION}, or ${CHANGELOG_LEGACY_METADATA_OPERATION} before Flink 1.15) in a record of the changelog's META key group, found ${bytes[0]}`,
            0,
          );
          part.warnings.push(`a changelog META record could not be read: ${e.message}`);
          part.records.push({ kind: 'bad-meta', reason: `its changelog META record could not be read: ${e.message}` });
          continue;
        }
        part.metadataOperation = meta.operation;
        if (meta.unknown)
          part.records.push({
            kind: 'bad-meta',
            name: meta.state.name,
            reason: `its changelog META record names an unknown serializer (${meta.unknown.message}), so its state id and changes cannot be read`,
          });
        else part.records.push({ kind: 'meta', stateId: meta.stateId, state: meta.state, backendStateType: meta.backendStateType, ttl: meta.ttl });
        if (!part.states.some((s) => s.name === meta.state.name)) part.states.push(meta.state);
      } catch (e) {
        if (!isDecodeError(e)) throw e;
        part.warnings.push(`a changelog META record could not be read: ${e.message}`);
        part.records.push({
          kind: 'bad-meta',
          ...(name.value === undefined ? {} : { name: name.value }),
          reason: `its changelog META record could not be read: ${e.message}`,
        });
      }
    }
  }
  return part;
}

type MetaRecord =
  | { operation: number; state: StateMetaInfo; stateId: number; backendStateType: number; ttl: boolean; unknown?: undefined }
  /** a serializer of the state is not known: the record's end, and so its state id, cannot be found */
  | { operation: number; state: StateMetaInfo; unknown: DecodeError };

/**
 * A META record (undefined for another operation). Serializers after an unknown one are not read (the
 * record has no fence to resynchronise on), nor then its state id (`unknown` says why).
 */
function readMetaRecord(r: ByteReader, registry: SnapshotRegistry, name: { value?: string }): MetaRecord | undefined {
  const operation = r.readU8('changelog operation');
  if (operation !== CHANGELOG_METADATA_OPERATION && operation !== CHANGELOG_LEGACY_METADATA_OPERATION) return undefined;
  const versionAt = r.position;
  const version = r.readI32('state meta info version');
  if (version < 6 || version > 7)
    throw r.error('unsupported-version', `expected state meta info version 6 or 7 in a changelog META record, found ${version}`, versionAt);
  const prefix = readStateMetaInfoPrefix(r);
  name.value = prefix.name;
  const serializers: Record<string, SerializerSnapshot> = {};
  let unknown: DecodeError | undefined;
  for (let j = 0; j < prefix.serializerCount; j++) {
    const key = r.readUtf(`serializer key of state ${prefix.name}`);
    const at = r.position;
    try {
      serializers[key] = readSerializerSnapshot(r, registry);
    } catch (e) {
      const described = isDecodeError(e) ? describeUnknownSerializer(e) : undefined;
      if (!described) throw e;
      serializers[key] = createUnknownTopLevelSnapshot(r, at, e as DecodeError, described);
      unknown = e as DecodeError;
      break;
    }
  }
  const state = createStateMetaInfo(prefix, serializers);
  if (unknown) return { operation, state, unknown };
  let ttl = false;
  if (prefix.backendStateType === 'KEY_VALUE' || prefix.backendStateType === 'KEY_VALUE_V2') {
    ttl = r.readBool(`TTL flag of state ${prefix.name}`);
    if (ttl) readJavaSerializedObject(r, `the TTL configuration of state ${prefix.name}`);
    if (r.readBool(`default value flag of state ${prefix.name}`)) {
      const codec = serializers.VALUE_SERIALIZER?.status === 'unknown' ? undefined : serializers.VALUE_SERIALIZER?.codec;
      if (!codec)
        throw r.error(
          'unsupported-format',
          `expected a value serializer that can read the default value of state ${prefix.name}, found ${serializers.VALUE_SERIALIZER?.typeLabel ?? 'none'}`,
        );
      codec.decode(r, 'skip');
    }
  }
  const stateId = r.readI16(`state id of ${prefix.name}`);
  const backendStateType = r.readU8(`backend state type of ${prefix.name}`);
  return { operation, state, stateId, backendStateType, ttl };
}
