import type { DecodedValue, SnapshotReader } from './snapshot-types';
import { readCompositeSnapshot, sumFixedLengths } from './read-composite-snapshot';
import { makeComposite } from './make-composite';

const TUPLE = 'org.apache.flink.api.java.typeutils.runtime.TupleSerializerSnapshot';

/** TupleSerializerSnapshot: outer = `utf` tuple class; values: fields in order, no null flags. */
export const tupleSnapshotReader: SnapshotReader = {
  classNames: [TUPLE],
  read(r, version, name, ctx) {
    const { outer: tupleClass, nested } = readCompositeSnapshot(r, version, ctx, (o) => o.readUtf('tuple class'));
    const simple = tupleClass.slice(tupleClass.lastIndexOf('.') + 1);
    const label = `${simple}<${nested.map((n) => n.typeLabel).join(', ')}>`;
    return makeComposite(
      name,
      version,
      nested,
      label,
      sumFixedLengths(nested, false),
      (vr, codecs, mode): DecodedValue => ({
        kind: 'tuple',
        className: tupleClass,
        fields: codecs.map((c) => c.decode(vr, mode)),
      }),
      { tupleClass },
    );
  },
};
