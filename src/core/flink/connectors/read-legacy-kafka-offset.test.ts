import { describe, expect, it } from 'vitest';
import { ByteReader } from '../../io';
import { readLegacyKafkaOffset } from './read-legacy-kafka-offset';

/** An element of the Kafka fixture's `topic-partition-offset-states` (Flink 1.20.5, Kryo 2.24): orders-1, offset 6. */
const REAL = Uint8Array.from([0x57, 0x01, 0x87, 0x99, 0x98, 0xff, 0x08, 0x02, 0x01, ...new TextEncoder().encode('order'), 0xf3, 0, 0, 0, 0, 0, 0, 0, 6]);

describe('readLegacyKafkaOffset', () => {
  it('reads a real element: Kryo KafkaTopicPartition (registered, id 85) and the offset', () => {
    expect(readLegacyKafkaOffset(new ByteReader(REAL))).toEqual({ topic: 'orders', partition: 1, offset: 6n });
  });

  it('a missing reference marker before the topic is named with its offset', () => {
    const bad = REAL.slice();
    bad[8] = 0x03;
    expect(() => readLegacyKafkaOffset(new ByteReader(bad, { file: 'f' }))).toThrow(
      "expected Kryo's reference marker 1 (a new object) before the topic string, found 3 — at f, offset 8 (0x8)",
    );
  });

  it('a truncated offset is named', () => {
    expect(() => readLegacyKafkaOffset(new ByteReader(REAL.subarray(0, REAL.length - 3), { file: 'f' }))).toThrow(
      'expected 8 bytes for offset, found 5 — at f, offset 15 (0xf)',
    );
  });

  it('names a varint longer than 5 bytes at its start, and one cut off where it ends', () => {
    const long = Uint8Array.from([0xd7, 0x80, 0x80, 0x80, 0x80, 0x01]);
    expect(() => readLegacyKafkaOffset(new ByteReader(long, { file: 'f' }))).toThrow(
      'expected a varint of at most 5 bytes for Kryo class id of the KafkaTopicPartition, found more — at f, offset 0 (0x0)',
    );
    expect(() => readLegacyKafkaOffset(new ByteReader(REAL.subarray(0, 4), { file: 'f' }))).toThrow(
      'expected 1 byte for cachedHash of the KafkaTopicPartition, found 0 — at f, offset 4 (0x4)',
    );
    // a topic as a UTF-8 string whose length (2: count + 1) is cut off after its first byte
    const cut = Uint8Array.from([...REAL.subarray(0, 9), 0xc2, 0x80]);
    expect(() => readLegacyKafkaOffset(new ByteReader(cut, { file: 'f' }))).toThrow(
      'expected 1 byte for length of topic of the KafkaTopicPartition, found 0 — at f, offset 11 (0xb)',
    );
  });
});
