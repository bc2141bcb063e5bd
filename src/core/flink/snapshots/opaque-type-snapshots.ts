import type { SerializerSnapshot, SnapshotReader } from './snapshot-types';
import { readLinkedOptionalMap } from './read-linked-optional-map';

const KRYO = 'org.apache.flink.api.java.typeutils.runtime.kryo.KryoSerializerSnapshot';
const VALUE = 'org.apache.flink.api.java.typeutils.runtime.ValueSerializer$ValueSerializerSnapshot';
const COPYABLE = 'org.apache.flink.api.java.typeutils.runtime.CopyableValueSerializer$CopyableValueSerializerSnapshot';

function simpleName(c: string): string {
  return c.slice(c.lastIndexOf('.') + 1);
}

/** KryoSerializerSnapshot: `utf` type class + three linked optional maps; values opaque. */
export const kryoSnapshotReader: SnapshotReader = {
  classNames: [KRYO],
  read(r, version, className): SerializerSnapshot {
    if (version !== 2) throw r.error('unsupported-version', `expected ${className} version 2, found ${version}`);
    const typeClass = r.readUtf('Kryo type class');
    const registrations = readLinkedOptionalMap(r, 'Kryo registrations').map((e) => e.name);
    const defaultSerializers = readLinkedOptionalMap(r, 'Kryo default serializers').map((e) => e.name);
    const defaultSerializerClasses = readLinkedOptionalMap(r, 'Kryo default serializer classes').map((e) => e.name);
    return {
      className,
      version,
      typeLabel: `Kryo ${simpleName(typeClass)}`,
      status: 'opaque',
      nested: [],
      fixedLength: -1,
      details: { typeClass, registrations, defaultSerializers, defaultSerializerClasses },
    };
  },
};

/** GenericTypeSerializerSnapshot subclasses (version 2): one `utf` type class; values opaque. */
export const genericTypeSnapshotReader: SnapshotReader = {
  classNames: [VALUE, COPYABLE],
  read(r, version, className): SerializerSnapshot {
    if (version !== 2) throw r.error('unsupported-version', `expected ${className} version 2, found ${version}`);
    const typeClass = r.readUtf('type class');
    const kind = className === VALUE ? 'Value' : 'CopyableValue';
    return { className, version, typeLabel: `${kind} ${simpleName(typeClass)}`, status: 'opaque', nested: [], fixedLength: -1, details: { typeClass } };
  },
};
