import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter, isDecodeError } from '../../io';
import { createSnapshotRegistry } from '../snapshots/snapshot-registry';
import { decodeKeyGroupTimers, rawTimerStateName } from './read-raw-keyed-timers';

const INT = 'org.apache.flink.api.common.typeutils.base.IntSerializer$IntSerializerSnapshot';
const STRING = 'org.apache.flink.api.common.typeutils.base.StringSerializer$StringSerializerSnapshot';
const VOID_NS = 'org.apache.flink.runtime.state.VoidNamespaceSerializer$VoidNamespaceSerializerSnapshot';
const registry = createSnapshotRegistry();

/** One key group's InternalTimerServiceSerializationProxy as Flink 1.8 writes it (magic, version, services). */
function keyGroup(services: { name: string; key?: string; event: [number, bigint][]; processing: [number, bigint][] }[], version = 2): ByteWriter {
  const w = new ByteWriter().bytes([0xf1, 0xcd, 0x85, 0x9f]).i32(version).i32(services.length);
  for (const s of services) {
    w.utf(s.name)
      .utf(s.key ?? INT)
      .i32(3)
      .utf(VOID_NS)
      .i32(3);
    for (const timers of [s.event, s.processing]) {
      w.i32(timers.length);
      for (const [key, ts] of timers) w.i32(key).u8(0).i64(ts); // key, VoidNamespace (one 0 byte), timestamp
    }
  }
  return w;
}

function decode(bytes: Uint8Array) {
  return decodeKeyGroupTimers(new ByteReader(bytes, { file: 'raw', path: ['key group 3'] }), registry);
}

function errorOf(bytes: Uint8Array): string {
  try {
    decode(bytes);
  } catch (e) {
    if (isDecodeError(e)) return `${e.code} @${e.offset}: ${e.detail}`;
    throw e;
  }
  throw new Error('expected a DecodeError');
}

describe('decodeKeyGroupTimers (timers in raw keyed state, Flink 1.8)', () => {
  it('decodes each service with its serializers and its event and processing timers (key, namespace, plain i64 timestamp)', () => {
    const bytes = keyGroup([
      {
        name: 'user-timers',
        event: [
          [7, 1000n],
          [9, -5n],
        ],
        processing: [[7, 1_700_000_000_000n]],
      },
      { name: 'window-timers', event: [], processing: [] },
    ]).finish();
    const services = decode(bytes);
    expect(services.map((s) => [s.name, s.keySerializer.typeLabel, s.namespaceSerializer.typeLabel])).toEqual([
      ['user-timers', 'Integer', 'VoidNamespace'],
      ['window-timers', 'Integer', 'VoidNamespace'],
    ]);
    expect(services[0]!.event.map((t) => [t.key, t.namespace.kind, t.timestamp])).toEqual([
      [{ kind: 'int', type: 'Int', value: 7 }, 'void-namespace', '1000'],
      [{ kind: 'int', type: 'Int', value: 9 }, 'void-namespace', '-5'],
    ]);
    // the third timer: after the 12-byte proxy head, the service's name and serializers, two event timers, two counts
    const head = 12 + 2 + 'user-timers'.length + 2 + INT.length + 4 + 2 + VOID_NS.length + 4;
    expect(services[0]!.processing.map((t) => [t.timestamp, t.offset, t.length])).toEqual([['1700000000000', head + 4 + 2 * 13 + 4, 13]]);
    expect(services[1]!.event).toEqual([]);
    expect(rawTimerStateName('user-timers', 'event')).toBe('_timer_state/event_user-timers');
  });

  it('names raw keyed state that the timer service did not write (no magic bytes)', () => {
    expect(errorOf(new ByteWriter().i32(0).i32(2).finish())).toBe(
      "unsupported-format @0: expected a timer service snapshot (magic bytes F1 CD 85 9F) at the start of the key group's raw keyed state, found 00 00 00 00: raw keyed state that Flink's timer service did not write is not read here",
    );
  });

  it('names version 1 (Java-serialized serializers) and other versions', () => {
    expect(errorOf(keyGroup([], 1).finish())).toBe(
      'unsupported-version @4: expected timer service snapshot version 2, found 1 (version 1 holds Java-serialized key and namespace serializers, which are not read here)',
    );
    expect(errorOf(keyGroup([], 9).finish())).toBe('unsupported-version @4: expected timer service snapshot version 2, found 9');
  });

  it('says where a truncated or corrupt snapshot ends', () => {
    const whole = keyGroup([{ name: 'user-timers', event: [[7, 1000n]], processing: [] }]).finish();
    expect(errorOf(whole.subarray(0, whole.length - 2))).toBe(`truncated @${whole.length - 4}: expected 4 bytes for number of processing-time timers, found 2`);
    expect(errorOf(whole.subarray(0, whole.length - 7))).toBe(`truncated @${whole.length - 12}: expected 8 bytes for event-time timer timestamp, found 5`);
    const negative = keyGroup([]).finish();
    negative.set([0xff, 0xff, 0xff, 0xfe], 8);
    expect(errorOf(negative)).toBe('invalid-value @8: expected a non-negative number of timer services, found -2');
    const trailing = new Uint8Array([...keyGroup([]).finish(), 0, 0]);
    expect(errorOf(trailing)).toBe("invalid-value @12: expected the key group's timer service snapshot to end at its next key group, found 2 bytes after it");
  });

  it('refuses timers whose key serializer has no decoder, and names an unknown one', () => {
    const unknown = keyGroup([{ name: 'user-timers', key: 'com.example.MysterySerializerSnapshot', event: [[1, 1n]], processing: [] }]).finish();
    expect(errorOf(unknown)).toBe('unknown-serializer @25: unknown serializer snapshot com.example.MysterySerializerSnapshot v3');
    const strings = keyGroup([{ name: 'user-timers', key: STRING, event: [], processing: [] }]).finish();
    expect(decode(strings)[0]!.keySerializer.typeLabel).toBe('String');
  });
});
