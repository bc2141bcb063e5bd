/**
 * The header of a canonical keyed state stream (KeyedBackendSerializationProxy v6) for
 * the benchmark savepoints: a String key, then one ValueState per given name whose value
 * serializer is the flink-datastream-protobuf snapshot (written by the core's protobuf writer)
 * and whose namespace is VoidNamespace.
 */
import { ByteWriter } from '../../src/core/io';
import { DEFAULT_PROTOBUF_SETTINGS, normalizeSnapshotDescriptors, writeProtobufSnapshotParts } from '../../src/core/protobuf';

export const STRING_SNAPSHOT = 'org.apache.flink.api.common.typeutils.base.StringSerializer$StringSerializerSnapshot';
export const VOID_NAMESPACE_SNAPSHOT = 'org.apache.flink.runtime.state.VoidNamespaceSerializer$VoidNamespaceSerializerSnapshot';
/** TypeSerializerSnapshotSerializationProxy version written before each top-level snapshot */
const SNAPSHOT_PROXY_VERSION = 2;
const KEYED_PROXY_VERSION = 6;
/** StateMetaInfoSnapshot.BackendStateType.KEY_VALUE */
const KEY_VALUE = 0;

export interface BenchProtobufType {
  javaClass: string;
  rootFullName: string;
  /** a FileDescriptorSet holding the root's file */
  descriptorSet: Uint8Array;
}

export function writeKeyedStateHeader(stateNames: readonly string[], type: BenchProtobufType): Uint8Array {
  const descriptors = normalizeSnapshotDescriptors(type.descriptorSet, type.rootFullName);
  const w = new ByteWriter();
  w.i32(KEYED_PROXY_VERSION).bool(false);
  w.i32(SNAPSHOT_PROXY_VERSION).utf(STRING_SNAPSHOT).i32(3);
  w.i16(stateNames.length);
  for (const name of stateNames) {
    w.utf(name).i32(KEY_VALUE).i32(1).utf('KEYED_STATE_TYPE').utf('VALUE');
    w.i32(2);
    w.utf('VALUE_SERIALIZER').i32(SNAPSHOT_PROXY_VERSION);
    writeProtobufSnapshotParts(w, type.javaClass, type.rootFullName, DEFAULT_PROTOBUF_SETTINGS, descriptors);
    w.utf('NAMESPACE_SERIALIZER').i32(SNAPSHOT_PROXY_VERSION).utf(VOID_NAMESPACE_SNAPSHOT).i32(3);
  }
  return w.finish();
}
