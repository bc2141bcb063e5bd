import type { ByteReader } from '../../io';
import type { DecodedValue, SnapshotReader, ValueCodec, ValueMode } from './snapshot-types';
import { checkOuterVersion, expectNestedCount, joinLabels, readCompositeSnapshot, sumFixedLengths } from './read-composite-snapshot';
import { makeComposite } from './make-composite';

const TTL = 'org.apache.flink.runtime.state.ttl.TtlStateFactory$TtlSerializerSnapshot';
const TIMER = 'org.apache.flink.streaming.api.operators.TimerSerializerSnapshot';
const NULLABLE = 'org.apache.flink.api.java.typeutils.runtime.NullableSerializer$NullableSerializerSnapshot';
const EITHER = 'org.apache.flink.api.java.typeutils.runtime.JavaEitherSerializerSnapshot';
const ROW = 'org.apache.flink.api.java.typeutils.runtime.RowSerializer$RowSerializerSnapshot';

const SIGN_BIT = 1n << 63n;
const noOuter = () => undefined;

/** TtlSerializer values: `i64` last-access timestamp, then the user value. */
export const ttlSnapshotReader: SnapshotReader = {
  classNames: [TTL],
  read(r, version, name, ctx) {
    const at = r.position;
    const { outerVersion, nested } = readCompositeSnapshot(r, version, ctx, noOuter);
    if (version >= 3) checkOuterVersion(r, name, outerVersion, [1, 2]);
    expectNestedCount(r, name, nested, 2, at);
    return makeComposite(name, version, nested, `TTL<${nested[1]!.typeLabel}>`, sumFixedLengths(nested, true), (vr, [ts, value], mode): DecodedValue => {
      const t = ts!.decode(vr);
      return { kind: 'ttl', lastAccessTimestamp: t.kind === 'long' ? t.value : JSON.stringify(t), value: value!.decode(vr, mode) };
    });
  },
};

/** TimerSerializer values: `i64` timestamp with flipped sign bit, key, namespace. */
export const timerSnapshotReader: SnapshotReader = {
  classNames: [TIMER],
  read(r, version, name, ctx) {
    const at = r.position;
    const { outerVersion, nested } = readCompositeSnapshot(r, version, ctx, noOuter);
    if (version >= 3) checkOuterVersion(r, name, outerVersion, [1, 2]);
    expectNestedCount(r, name, nested, 2, at);
    const [key, ns] = nested as [(typeof nested)[0], (typeof nested)[0]];
    const fixed = key!.fixedLength >= 0 && ns!.fixedLength >= 0 ? 8 + key!.fixedLength + ns!.fixedLength : -1;
    return makeComposite(name, version, nested, `Timer<${joinLabels(nested)}>`, fixed, (vr, [k, n]): DecodedValue => {
      const raw = vr.readI64('timer timestamp');
      const timestamp = BigInt.asIntN(64, raw ^ SIGN_BIT).toString();
      return { kind: 'timer', timestamp, key: k!.decode(vr), namespace: n!.decode(vr) };
    });
  },
};

/** NullableSerializer values: `bool` isNull, then padding (null) or the value. */
export const nullableSnapshotReader: SnapshotReader = {
  classNames: [NULLABLE],
  read(r, version, name, ctx) {
    const at = r.position;
    const { outer: padding, nested } = readCompositeSnapshot(r, version, ctx, (o) => {
      const p = o.readI32('null padding length');
      if (p < 0) throw o.error('invalid-value', `expected a null padding length ≥ 0, found ${p}`, o.position - 4);
      return p;
    });
    expectNestedCount(r, name, nested, 1, at);
    return makeComposite(
      name,
      version,
      nested,
      `Nullable<${nested[0]!.typeLabel}>`,
      padding > 0 ? 1 + padding : -1,
      (vr, [inner], mode): DecodedValue => {
        if (vr.readBool('null flag')) {
          vr.skip(padding, 'null padding');
          return { kind: 'null' };
        }
        return inner!.decode(vr, mode);
      },
      { nullPaddingLength: padding },
    );
  },
};

/** Either values: `bool` isLeft, then the left or right value. */
export const eitherSnapshotReader: SnapshotReader = {
  classNames: [EITHER],
  read(r, version, name, ctx) {
    const at = r.position;
    const { nested } = readCompositeSnapshot(r, version, ctx, noOuter);
    expectNestedCount(r, name, nested, 2, at);
    return makeComposite(
      name,
      version,
      nested,
      `Either<${joinLabels(nested)}>`,
      -1,
      (vr: ByteReader, [left, right]: ValueCodec[], mode: ValueMode | undefined): DecodedValue => {
        const isLeft = vr.readBool('Either side flag');
        return {
          kind: 'tuple',
          className: isLeft ? 'org.apache.flink.types.Either$Left' : 'org.apache.flink.types.Either$Right',
          fields: [isLeft ? left!.decode(vr, mode) : right!.decode(vr, mode)],
        };
      },
    );
  },
};

/** RowSerializer: structure only (its value layout — row-kind and null masks — is not decoded here). */
export const rowSnapshotReader: SnapshotReader = {
  classNames: [ROW],
  read(r, version, name, ctx) {
    const { outerVersion, outer, nested } = readCompositeSnapshot(r, version, ctx, (o, v) => (v >= 3 ? o.readBool('row kind support flag') : false));
    return makeComposite(name, version, nested, `Row<${joinLabels(nested)}>`, -1, undefined, { supportsRowKind: outer, outerVersion });
  },
};
