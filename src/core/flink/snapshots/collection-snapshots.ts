import type { ByteReader } from '../../io';
import type { ByteRange, DecodedValue, SnapshotReader, ValueCodec, ValueMode } from './snapshot-types';
import { checkOuterVersion, expectNestedCount, readCompositeSnapshot } from './read-composite-snapshot';
import { makeComposite } from './make-composite';

const LIST = 'org.apache.flink.api.common.typeutils.base.ListSerializerSnapshot';
const ARRAY_LIST = 'org.apache.flink.runtime.state.ArrayListSerializerSnapshot';
const MAP = 'org.apache.flink.api.common.typeutils.base.MapSerializerSnapshot';
const SET = 'org.apache.flink.api.common.typeutils.base.SetSerializerSnapshot';
const GENERIC_ARRAY = 'org.apache.flink.api.common.typeutils.base.GenericArraySerializerSnapshot';

const noOuter = () => undefined;

/** ListSerializer / ArrayListSerializer values: `i32` size, then elements. */
function decodeList(r: ByteReader, [element]: ValueCodec[], mode: ValueMode | undefined): DecodedValue {
  const n = r.readCount('list elements', 1);
  const items: DecodedValue[] = [];
  for (let i = 0; i < n; i++) items.push(element!.decode(r, mode));
  return { kind: 'list', items };
}

/**
 * MapSerializer values: `i32` size, then key, `bool` isNull, value unless null. With where each
 * entry's value lies (absolute offsets, from the null flag on, as a canonical MapState entry's value
 * is written: flag + value), for the codec's `decodeWithEntryRanges`.
 */
function decodeMapWithEntryRanges(r: ByteReader, [key, value]: ValueCodec[], mode: ValueMode | undefined): { value: DecodedValue; entryRanges: ByteRange[] } {
  const n = r.readCount('map entries', 2);
  const entries: { key: DecodedValue; value: DecodedValue }[] = [];
  const entryRanges: ByteRange[] = [];
  for (let i = 0; i < n; i++) {
    const k = key!.decode(r, mode);
    const at = r.absolutePosition;
    const isNull = r.readBool('map value null flag');
    entries.push({ key: k, value: isNull ? { kind: 'null' } : value!.decode(r, mode) });
    entryRanges.push({ offset: at, length: r.absolutePosition - at });
  }
  return { value: { kind: 'map', entries }, entryRanges };
}

function decodeMap(r: ByteReader, codecs: ValueCodec[], mode: ValueMode | undefined): DecodedValue {
  return decodeMapWithEntryRanges(r, codecs, mode).value;
}

/** SetSerializer values (2.x): `i32` size, then per element `bool` isNull + element. */
function decodeSet(r: ByteReader, [element]: ValueCodec[], mode: ValueMode | undefined): DecodedValue {
  const n = r.readCount('set elements', 1);
  const items: DecodedValue[] = [];
  for (let i = 0; i < n; i++) items.push(r.readBool('set element null flag') ? { kind: 'null' } : element!.decode(r, mode));
  return { kind: 'list', items };
}

/** GenericArraySerializer values: `i32` length, then per element `bool` notNull + element. */
function decodeGenericArray(r: ByteReader, [component]: ValueCodec[], mode: ValueMode | undefined): DecodedValue {
  const n = r.readCount('array elements', 1);
  const items: DecodedValue[] = [];
  for (let i = 0; i < n; i++) items.push(r.readBool('array element present flag') ? component!.decode(r, mode) : { kind: 'null' });
  return { kind: 'list', items };
}

function singleElementReader(
  className: string,
  label: (e: string) => string,
  decode: (r: ByteReader, c: ValueCodec[], mode: ValueMode | undefined) => DecodedValue,
): SnapshotReader {
  return {
    classNames: [className],
    read(r, version, name, ctx) {
      const at = r.position;
      const { outerVersion, nested } = readCompositeSnapshot(r, version, ctx, noOuter);
      if (version >= 3) checkOuterVersion(r, name, outerVersion, [1]);
      expectNestedCount(r, name, nested, 1, at);
      return makeComposite(name, version, nested, label(nested[0]!.typeLabel), -1, decode);
    },
  };
}

export const listSnapshotReader = singleElementReader(LIST, (e) => `List<${e}>`, decodeList);
export const arrayListSnapshotReader = singleElementReader(ARRAY_LIST, (e) => `ArrayList<${e}>`, decodeList);
export const setSnapshotReader = singleElementReader(SET, (e) => `Set<${e}>`, decodeSet);

export const mapSnapshotReader: SnapshotReader = {
  classNames: [MAP],
  read(r, version, name, ctx) {
    const at = r.position;
    const { outerVersion, nested } = readCompositeSnapshot(r, version, ctx, noOuter);
    if (version >= 3) checkOuterVersion(r, name, outerVersion, [1]);
    expectNestedCount(r, name, nested, 2, at);
    const snapshot = makeComposite(name, version, nested, `Map<${nested[0]!.typeLabel}, ${nested[1]!.typeLabel}>`, -1, decodeMap);
    if (snapshot.codec) {
      const codecs = nested.map((n) => n.codec!);
      snapshot.codec.decodeWithEntryRanges = (vr, mode) => decodeMapWithEntryRanges(vr, codecs, mode);
    }
    return snapshot;
  },
};

export const genericArraySnapshotReader: SnapshotReader = {
  classNames: [GENERIC_ARRAY],
  read(r, version, name, ctx) {
    const at = r.position;
    const { outer: componentClass, nested } = readCompositeSnapshot(r, version, ctx, (o) => o.readUtf('array component class'));
    expectNestedCount(r, name, nested, 1, at);
    return makeComposite(name, version, nested, `${nested[0]!.typeLabel}[]`, -1, decodeGenericArray, { componentClass });
  },
};
