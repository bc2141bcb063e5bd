/**
 * One element of FlinkKafkaConsumer's union state `topic-partition-offset-states`: Flink's TupleSerializer of
 * (KryoSerializer<KafkaTopicPartition>, LongSerializer), as FlinkKafkaConsumerBase#createStateSerializer builds it:
 * - Kryo `writeClassAndObject` (references on): the class as a varint (`id + 2` for a registered class; `1`, a
 *   varint name id and the class name as a Kryo string for one written by name), the reference marker varint 1;
 * - Kryo's FieldSerializer, fields by name: `cachedHash` and `partition` as zig-zag varints
 *   (IntField, `writeInt(v, false)`), `topic` as a String field (reference marker 1, then a Kryo string);
 * - the offset: int64 big-endian (the last record emitted, or a KafkaTopicPartitionStateSentinel).
 */
import { type ByteReader, VARINT_TOO_LONG } from '../../io';

const KAFKA_TOPIC_PARTITION = 'org.apache.flink.streaming.connectors.kafka.internals.KafkaTopicPartition';

export function readLegacyKafkaOffset(r: ByteReader): { topic: string; partition: number; offset: bigint } {
  const classAt = r.position;
  const cls = readVarint(r, 'Kryo class id of the KafkaTopicPartition');
  if (cls === 0) throw r.error('invalid-value', 'expected a KafkaTopicPartition, found a null (Kryo class id 0)', classAt);
  if (cls === 1) {
    readVarint(r, 'Kryo class name id');
    const nameAt = r.position;
    const name = readKryoString(r, 'Kryo class name');
    if (name !== KAFKA_TOPIC_PARTITION) throw r.error('invalid-value', `expected the Kryo class ${KAFKA_TOPIC_PARTITION}, found ${name}`, nameAt);
  }
  readReferenceMarker(r, 'the KafkaTopicPartition');
  readZigZag(r, 'cachedHash of the KafkaTopicPartition');
  const partitionAt = r.position;
  const partition = readZigZag(r, 'partition of the KafkaTopicPartition');
  if (partition < 0) throw r.error('invalid-value', `expected a partition ≥ 0, found ${partition}`, partitionAt);
  readReferenceMarker(r, 'the topic string');
  const topic = readKryoString(r, 'topic of the KafkaTopicPartition');
  const offset = r.readI64('offset');
  if (r.remaining !== 0)
    throw r.error('invalid-value', `expected the element to end after the offset of ${topic}-${partition}, found ${r.remaining} more bytes`);
  return { topic, partition, offset };
}

function readVarint(r: ByteReader, what: string): number {
  const at = r.position;
  const result = r.readVarint(what, 5);
  if (result === VARINT_TOO_LONG) throw r.error('invalid-value', `expected a varint of at most 5 bytes for ${what}, found more`, at);
  return result >>> 0;
}

function readZigZag(r: ByteReader, what: string): number {
  const v = readVarint(r, what);
  return (v >>> 1) ^ -(v & 1);
}

function readReferenceMarker(r: ByteReader, what: string): void {
  const at = r.position;
  const marker = readVarint(r, `Kryo reference marker of ${what}`);
  if (marker !== 1) throw r.error('invalid-value', `expected Kryo's reference marker 1 (a new object) before ${what}, found ${marker}`, at);
}

/** Kryo's `Input.readString`: ASCII with the last byte's high bit set, or a flagged UTF-8 char count + 1 and the chars. */
function readKryoString(r: ByteReader, what: string): string {
  const at = r.position;
  let b = r.readU8(what);
  if ((b & 0x80) === 0) {
    let s = String.fromCharCode(b);
    while ((b & 0x80) === 0) {
      b = r.readU8(what);
      s += String.fromCharCode(b & 0x7f);
    }
    return s;
  }
  let count = b & 0x3f;
  if (b & 0x40) count += r.readVarint(`length of ${what}`, 4, true) * 64; // the rest of Kryo's readUtf8Length: at most 4 bytes, the last whole
  if (count === 0) throw r.error('invalid-value', `expected ${what}, found a null string`, at);
  let s = '';
  for (let i = 0; i < count - 1; i++) {
    const c = r.readU8(what);
    if (c < 0x80) s += String.fromCharCode(c);
    else if (c >> 5 === 0x06) s += String.fromCharCode(((c & 0x1f) << 6) | (r.readU8(what) & 0x3f));
    else if (c >> 4 === 0x0e) s += String.fromCharCode(((c & 0x0f) << 12) | ((r.readU8(what) & 0x3f) << 6) | (r.readU8(what) & 0x3f));
    else throw r.error('invalid-value', `expected a UTF-8 lead byte in ${what}, found 0x${c.toString(16)}`, r.position - 1);
  }
  return s;
}
