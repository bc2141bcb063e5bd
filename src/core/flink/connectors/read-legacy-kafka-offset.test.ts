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
});
