/**
 * `StreamElementSerializer$StreamElementSerializerSnapshot`, the serializer of operators that buffer records
 * (Table runtime operators among them): composite of the record serializer; values: a tag byte (0 record with
 * `i64` timestamp, 1 record, 2 watermark `i64`, 3 latency marker, 4 watermark status `i32`, 5 record attributes
 * `bool`, 6 internal watermark `i32` + `i64`). Facts from Flink's StreamElementSerializer (docs/flink-formats.md).
 */
import type { DecodedValue, SnapshotReader } from '../snapshot-types';
import { expectNestedCount, readCompositeSnapshot } from '../read-composite-snapshot';
import { makeComposite } from '../make-composite';

const STREAM_ELEMENT = 'org.apache.flink.streaming.runtime.streamrecord.StreamElementSerializer$StreamElementSerializerSnapshot';
const TAGS = ['record with timestamp', 'record', 'watermark', 'latency marker', 'watermark status', 'record attributes', 'internal watermark'];
const STREAM_RECORD = 'org.apache.flink.streaming.runtime.streamrecord.StreamRecord';

/** StreamElementSerializer: a tag byte, then a record (with its timestamp) or a watermark, status, marker. */
export const streamElementSnapshotReader: SnapshotReader = {
  classNames: [STREAM_ELEMENT],
  read(r, version, className, ctx) {
    const at = r.position;
    const { nested } = readCompositeSnapshot(r, version, ctx, () => undefined);
    expectNestedCount(r, className, nested, 1, at);
    return makeComposite(className, version, nested, `StreamElement<${nested[0]!.typeLabel}>`, -1, (vr, [record], mode): DecodedValue => {
      const tagAt = vr.position;
      const tag = vr.readU8('StreamElement tag');
      const long = (what: string): DecodedValue => ({ kind: 'long', value: vr.readI64(what).toString() });
      switch (tag) {
        case 0: {
          const timestamp = long('record timestamp');
          return {
            kind: 'pojo',
            className: STREAM_RECORD,
            fields: [
              { name: 'timestamp', value: timestamp },
              { name: 'value', value: record!.decode(vr, mode) },
            ],
          };
        }
        case 1:
          return { kind: 'pojo', className: STREAM_RECORD, fields: [{ name: 'value', value: record!.decode(vr, mode) }] };
        case 2:
          return {
            kind: 'pojo',
            className: 'org.apache.flink.streaming.api.watermark.Watermark',
            fields: [{ name: 'timestamp', value: long('watermark timestamp') }],
          };
        case 3: {
          const markedTime = long('latency marker time');
          const lower = long('operator id lower part');
          const upper = long('operator id upper part');
          const subtask: DecodedValue = { kind: 'int', type: 'Int', value: vr.readI32('latency marker subtask') };
          return {
            kind: 'pojo',
            className: 'org.apache.flink.streaming.runtime.streamrecord.LatencyMarker',
            fields: [
              { name: 'markedTime', value: markedTime },
              { name: 'operatorIdLower', value: lower },
              { name: 'operatorIdUpper', value: upper },
              { name: 'subtaskIndex', value: subtask },
            ],
          };
        }
        case 4:
          return {
            kind: 'pojo',
            className: 'org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus',
            fields: [{ name: 'status', value: { kind: 'int', type: 'Int', value: vr.readI32('watermark status') } }],
          };
        case 5:
          return {
            kind: 'pojo',
            className: 'org.apache.flink.streaming.runtime.streamrecord.RecordAttributes',
            fields: [{ name: 'backlog', value: { kind: 'boolean', value: vr.readBool('backlog flag') } }],
          };
        case 6: {
          const subpartition: DecodedValue = { kind: 'int', type: 'Int', value: vr.readI32('internal watermark subpartition') };
          return {
            kind: 'pojo',
            className: 'org.apache.flink.streaming.runtime.watermark.InternalWatermark',
            fields: [
              { name: 'subpartitionIndex', value: subpartition },
              { name: 'timestamp', value: long('watermark timestamp') },
            ],
          };
        }
        default:
          throw vr.error('invalid-value', `expected a StreamElement tag 0–6 (${TAGS.join(', ')}), found ${tag}`, tagAt);
      }
    });
  },
};
