import type { SerializerSnapshot, SnapshotReader } from './snapshot-types';

const VALUE = 'org.apache.flink.api.java.typeutils.runtime.ValueSerializer$ValueSerializerSnapshot';
const COPYABLE = 'org.apache.flink.api.java.typeutils.runtime.CopyableValueSerializer$CopyableValueSerializerSnapshot';

function simpleName(c: string): string {
  return c.slice(c.lastIndexOf('.') + 1);
}

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
