import { ByteWriter } from '../../src/core/io';

/** Byte builders for serializer snapshots, used by the flink-state tests. */
export const CLS = {
  int: 'org.apache.flink.api.common.typeutils.base.IntSerializer$IntSerializerSnapshot',
  long: 'org.apache.flink.api.common.typeutils.base.LongSerializer$LongSerializerSnapshot',
  string: 'org.apache.flink.api.common.typeutils.base.StringSerializer$StringSerializerSnapshot',
  voidNs: 'org.apache.flink.runtime.state.VoidNamespaceSerializer$VoidNamespaceSerializerSnapshot',
  timeWindow: 'org.apache.flink.streaming.api.windowing.windows.TimeWindow$Serializer$TimeWindowSerializerSnapshot',
  java: 'org.apache.flink.runtime.state.JavaSerializer$JavaSerializerSnapshot',
  list: 'org.apache.flink.api.common.typeutils.base.ListSerializerSnapshot',
  map: 'org.apache.flink.api.common.typeutils.base.MapSerializerSnapshot',
  tuple: 'org.apache.flink.api.java.typeutils.runtime.TupleSerializerSnapshot',
  ttl: 'org.apache.flink.runtime.state.ttl.TtlStateFactory$TtlSerializerSnapshot',
  timer: 'org.apache.flink.streaming.api.operators.TimerSerializerSnapshot',
  pojo: 'org.apache.flink.api.java.typeutils.runtime.PojoSerializerSnapshot',
  kryo: 'org.apache.flink.api.java.typeutils.runtime.kryo.KryoSerializerSnapshot',
  enumS: 'org.apache.flink.api.common.typeutils.base.EnumSerializer$EnumSerializerSnapshot',
  unknown: 'com.example.MysterySerializerSnapshot',
} as const;

export type SnapshotSpec =
  | { simple: string; version?: number }
  | { composite: string; outerVersion: number; outer?: (w: ByteWriter) => void; nested: SnapshotSpec[]; legacyVersion?: number }
  | { raw: string; version: number; content: (w: ByteWriter) => void };

/** Writes the nested form: utf class, i32 version, content. */
export function writeNested(w: ByteWriter, s: SnapshotSpec): ByteWriter {
  if ('simple' in s) return w.utf(s.simple).i32(s.version ?? 3);
  if ('raw' in s) {
    w.utf(s.raw).i32(s.version);
    s.content(w);
    return w;
  }
  if (s.legacyVersion !== undefined) {
    w.utf(s.composite).i32(s.legacyVersion);
  } else {
    w.utf(s.composite).i32(3).i32(911108).i32(s.outerVersion);
  }
  s.outer?.(w);
  w.i32(1333245).i32(1).i32(s.nested.length);
  for (const n of s.nested) writeNested(w, n);
  return w;
}

/** Writes the top-level form: i32 proxy version 2 + nested form. */
export function writeTopLevel(w: ByteWriter, s: SnapshotSpec): ByteWriter {
  return writeNested(w.i32(2), s);
}

export const simple = (c: string): SnapshotSpec => ({ simple: c });
export const tuple = (tupleClass: string, ...fields: SnapshotSpec[]): SnapshotSpec => ({
  composite: CLS.tuple,
  outerVersion: 2,
  outer: (w) => w.utf(tupleClass),
  nested: fields,
});
export const list = (e: SnapshotSpec): SnapshotSpec => ({ composite: CLS.list, outerVersion: 1, nested: [e] });
export const map = (k: SnapshotSpec, v: SnapshotSpec): SnapshotSpec => ({ composite: CLS.map, outerVersion: 1, nested: [k, v] });
export const timer = (k: SnapshotSpec, n: SnapshotSpec): SnapshotSpec => ({ composite: CLS.timer, outerVersion: 2, nested: [k, n] });

export interface StateSpec {
  name: string;
  type: number;
  options: Record<string, string>;
  serializers: [string, SnapshotSpec][];
}

export function writeStateMetaInfo(w: ByteWriter, s: StateSpec): ByteWriter {
  w.utf(s.name).i32(s.type).i32(Object.keys(s.options).length);
  for (const [k, v] of Object.entries(s.options)) w.utf(k).utf(v);
  w.i32(s.serializers.length);
  for (const [k, snap] of s.serializers) writeTopLevel(w.utf(k), snap);
  return w;
}

/** KeyedBackendSerializationProxy v6 header. */
export function writeKeyedHeader(w: ByteWriter, key: SnapshotSpec, states: StateSpec[], compressed = false): ByteWriter {
  w.i32(6).bool(compressed);
  writeTopLevel(w, key);
  w.i16(states.length);
  for (const s of states) writeStateMetaInfo(w, s);
  return w;
}

export const valueState = (name: string, value: SnapshotSpec, ns: SnapshotSpec = simple(CLS.voidNs), kind = 'VALUE'): StateSpec => ({
  name,
  type: 0,
  options: { KEYED_STATE_TYPE: kind },
  serializers: [
    ['VALUE_SERIALIZER', value],
    ['NAMESPACE_SERIALIZER', ns],
  ],
});
