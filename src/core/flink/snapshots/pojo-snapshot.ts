import { isDecodeError, type ByteReader, formatHex } from '../../io';
import { describeUnknownSerializer, createUnknownSnapshot } from './read-serializer-snapshot';
import type { DecodedValue, SerializerSnapshot, SnapshotReader, SnapshotReadContext, ValueCodec, ValueMode } from './snapshot-types';
import { readLinkedOptionalMap, type LinkedOptionalMapEntry } from './read-linked-optional-map';

const POJO = 'org.apache.flink.api.java.typeutils.runtime.PojoSerializerSnapshot';

const IS_NULL = 0x01;
const NO_SUBCLASS = 0x02;
const IS_SUBCLASS = 0x04;
const IS_TAGGED_SUBCLASS = 0x08;

export interface PojoField {
  name: string;
  declaringClass?: string;
  serializer?: SerializerSnapshot;
}

/** A value frame holds a nested snapshot; an unknown class inside it is recorded, not fatal. */
function readFrameSnapshot(frame: ByteReader | undefined, ctx: SnapshotReadContext): SerializerSnapshot | undefined {
  if (frame === undefined) return undefined;
  try {
    return ctx.readNested(frame);
  } catch (e) {
    const unknown = isDecodeError(e) ? describeUnknownSerializer(e) : undefined;
    if (unknown) return createUnknownSnapshot(unknown.className, unknown.version);
    throw e;
  }
}

function readField(entry: LinkedOptionalMapEntry, ctx: SnapshotReadContext): PojoField {
  const field: PojoField = { name: entry.name };
  if (entry.key) {
    field.declaringClass = entry.key.readUtf('field declaring class');
    field.name = entry.key.readUtf('field name');
  }
  const serializer = readFrameSnapshot(entry.value, ctx);
  if (serializer) field.serializer = serializer;
  return field;
}

/**
 * PojoSerializerSnapshot: `utf` class, then linked optional maps of field serializers,
 * registered subclasses and non-registered subclasses. Values are decodable when every
 * field serializer is known.
 */
export const pojoSnapshotReader: SnapshotReader = {
  classNames: [POJO],
  read(r, version, className, ctx) {
    if (version !== 2) throw r.error('unsupported-version', `expected ${className} version 2, found ${version}`);
    const pojoClass = r.readUtf('POJO class name');
    const fields = readLinkedOptionalMap(r, 'POJO field serializers').map((e) => readField(e, ctx));
    const registered = readLinkedOptionalMap(r, 'POJO registered subclass serializers').map((e) => ({
      name: e.name,
      serializer: readFrameSnapshot(e.value, ctx),
    }));
    const nonRegistered = readLinkedOptionalMap(r, 'POJO non-registered subclass serializers').map((e) => ({
      name: e.name,
      serializer: readFrameSnapshot(e.value, ctx),
    }));
    const nested = fields.map((f) => f.serializer).filter((s): s is SerializerSnapshot => s !== undefined);
    const codecs = fields.map((f) => (f.serializer?.status === 'known' ? f.serializer.codec : undefined));
    const decodable = codecs.every((c) => c !== undefined);
    const simple = pojoClass.slice(pojoClass.lastIndexOf('.') + 1);
    const snapshot: SerializerSnapshot = {
      className,
      version,
      typeLabel: `POJO ${simple}`,
      status: nested.some((n) => n.status === 'unknown') || !decodable ? 'opaque' : 'known',
      nested,
      fixedLength: -1,
      details: {
        pojoClass,
        fields: fields.map((f) => ({ name: f.name, declaringClass: f.declaringClass, type: f.serializer?.typeLabel ?? 'missing' })),
        registeredSubclasses: registered.map((s) => s.name),
        nonRegisteredSubclasses: nonRegistered.map((s) => s.name),
      },
    };
    if (decodable)
      snapshot.codec = createPojoCodec(
        pojoClass,
        fields.map((f) => f.name),
        codecs as ValueCodec[],
      );
    return snapshot;
  },
};

function createPojoCodec(pojoClass: string, names: string[], codecs: ValueCodec[]): ValueCodec {
  return {
    decode(r: ByteReader, mode?: ValueMode): DecodedValue {
      const at = r.position;
      const flags = r.readU8('POJO flags');
      if (flags & IS_NULL) return { kind: 'null' };
      if (flags & (IS_SUBCLASS | IS_TAGGED_SUBCLASS)) {
        const sub = flags & IS_SUBCLASS ? `subclass ${r.readUtf('POJO subclass name')}` : `registered subclass tag ${r.readU8('POJO subclass tag')}`;
        throw r.error('unsupported-format', `expected a ${pojoClass} value of the exact class, found a ${sub} (subclass values are not decodable here)`, at);
      }
      if (!(flags & NO_SUBCLASS)) throw r.error('invalid-value', `expected POJO flags 0x01, 0x02, 0x04 or 0x08, found 0x${formatHex([flags])}`, at);
      const fields = names.map((name, i) => ({
        name,
        value: r.readBool(`null flag of field ${name}`) ? ({ kind: 'null' } as DecodedValue) : codecs[i]!.decode(r, mode),
      }));
      return { kind: 'pojo', className: pojoClass, fields };
    },
  };
}
