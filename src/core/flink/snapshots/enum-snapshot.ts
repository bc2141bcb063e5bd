import type { SerializerSnapshot, SnapshotReader } from './snapshot-types';

const ENUM = 'org.apache.flink.api.common.typeutils.base.EnumSerializer$EnumSerializerSnapshot';

/** EnumSerializerSnapshot v3: `utf` enum class, `i32` n, n × `utf` constants. Values: `i32` position. */
export const enumSnapshotReader: SnapshotReader = {
  classNames: [ENUM],
  read(r, version, className): SerializerSnapshot {
    if (version !== 3) throw r.error('unsupported-version', `expected ${className} version 3, found ${version}`);
    const enumClass = r.readUtf('enum class');
    const n = r.readCount('enum constants', 2);
    const constants: string[] = [];
    for (let i = 0; i < n; i++) constants.push(r.readUtf('enum constant'));
    return {
      className,
      version,
      typeLabel: `Enum ${enumClass.slice(enumClass.lastIndexOf('.') + 1)}`,
      status: 'known',
      nested: [],
      fixedLength: 4,
      details: { enumClass, constants },
      codec: {
        decode(vr) {
          const at = vr.position;
          const ordinal = vr.readI32('enum position');
          if (ordinal < 0 || ordinal >= constants.length) {
            throw vr.error('invalid-value', `expected an enum position below ${constants.length} for ${enumClass}, found ${ordinal}`, at);
          }
          return { kind: 'enum', className: enumClass, ordinal, name: constants[ordinal]! };
        },
      },
    };
  },
};
