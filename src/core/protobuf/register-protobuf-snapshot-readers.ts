/**
 * Plugs the serializer's snapshot into flink's snapshot registry, so Protobuf state is read at
 * top level and inside Map/List/TTL composite snapshots alike. The reader table is open: the 1.0.0
 * snapshot classes and the DynamicMessage snapshot (root full name + normalized descriptor set +
 * settings) get their own entries here once bytes written by them can be observed.
 */
import type { SerializerSnapshot, SnapshotReader, SnapshotRegistry } from '../flink';
import { protobufSnapshotInferrer } from './infer-protobuf-snapshot';
import { PROTOBUF_SNAPSHOT_CLASS } from './protobuf-constants';
import type { ProtobufSnapshotContent } from './protobuf-snapshot-types';
import { ProtobufValueCodec } from './protobuf-value-codec';
import { readProtobufSnapshotContent } from './read-protobuf-snapshot';

export const PROTOBUF_SNAPSHOT_READERS: readonly SnapshotReader[] = [
  {
    classNames: [PROTOBUF_SNAPSHOT_CLASS],
    read(r, version, className) {
      return createProtobufSerializerSnapshot(className, version, readProtobufSnapshotContent(r, version));
    },
  },
];

/** The readers of the serializer's known snapshot classes, and the inferrer that reads unknown ones by structure (infer-protobuf-snapshot.ts). */
export function registerProtobufSnapshotReaders(registry: Pick<SnapshotRegistry, 'register' | 'registerInferrer'>): void {
  for (const reader of PROTOBUF_SNAPSHOT_READERS) registry.register(reader);
  registry.registerInferrer(protobufSnapshotInferrer);
}

export function createProtobufSerializerSnapshot(className: string, version: number, content: ProtobufSnapshotContent): SerializerSnapshot {
  return {
    className,
    version,
    typeLabel: `Protobuf ${content.rootFullName}`,
    status: 'known',
    nested: [],
    fixedLength: -1,
    details: {
      javaClass: content.javaClass,
      rootFullName: content.rootFullName,
      settings: { ...content.settings },
      descriptorFiles: [...content.schema.fileNames],
      descriptorBytes: content.descriptorBytes.length,
      descriptorSha256: content.descriptorSha256,
    },
    codec: new ProtobufValueCodec(content),
  };
}

/** The Protobuf content behind a snapshot read by this module, if any (not Kryo-held Protobuf: getKryoProtobufCodec). */
export function getProtobufSnapshotContent(snapshot: SerializerSnapshot): ProtobufSnapshotContent | undefined {
  return snapshot.codec instanceof ProtobufValueCodec && snapshot.codec.kryo === undefined ? snapshot.codec.content : undefined;
}

/** The codec of a Kryo snapshot whose Protobuf values are read with the user's schema, if any. */
export function getKryoProtobufCodec(snapshot: SerializerSnapshot): ProtobufValueCodec | undefined {
  return snapshot.codec instanceof ProtobufValueCodec && snapshot.codec.kryo !== undefined ? snapshot.codec : undefined;
}
