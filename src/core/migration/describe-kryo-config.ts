/**
 * The Kryo configuration a KryoSerializerSnapshot records (registrations, default serializers), as entries the
 * generated migration job registers again and as `pipeline.serialization-config` text for its README.
 */
import type { KryoSnapshotDetails } from '../flink';

const FLINK_DUMMY_AVRO = 'org.apache.flink.api.java.typeutils.runtime.kryo.Serializers$DummyAvro';

/** One registration or default serializer of the saved Kryo configuration. */
export interface KryoConfigEntry {
  kind: 'registered' | 'default';
  type: string;
  /** the Kryo serializer class (registrations without one are plain registerKryoType) */
  serializer?: string;
}

/**
 * The saved Kryo configuration, in the snapshot's order: registrations with a serializer class (CLASS, and
 * INSTANCE by its class, which needs a no-argument constructor as chill's has), plain registrations
 * (UNSPECIFIED), then the default serializers (instances and classes) by class. Flink's own DummyAvro
 * registration is left to Flink.
 */
export function describeKryoConfig(kryo: KryoSnapshotDetails | undefined): KryoConfigEntry[] {
  if (!kryo) return [];
  const out: KryoConfigEntry[] = [];
  for (const r of kryo.registrations) {
    const type = r.registeredClass ?? r.name;
    if (type.startsWith(FLINK_DUMMY_AVRO)) continue;
    out.push(r.serializerClass && r.kind !== 'UNSPECIFIED' ? { kind: 'registered', type, serializer: r.serializerClass } : { kind: 'registered', type });
  }
  for (const d of [...kryo.defaultSerializers, ...kryo.defaultSerializerClasses]) {
    if (d.serializerClass) out.push({ kind: 'default', type: d.forClass, serializer: d.serializerClass });
  }
  return out;
}

/** An entry as `pipeline.serialization-config` writes it; a plain registration has no such form (Flink 1.20 and 2.3 fail on one without a class), so it is the API call. */
export function formatKryoConfigEntry(e: KryoConfigEntry): string {
  if (!e.serializer) return `registerKryoType(${e.type})`;
  return `${e.type}: {type: kryo, kryo-type: ${e.kind}, class: ${e.serializer}}`;
}
