/**
 * core/report's value-view caps over a real decoded value (the demo schema's Event, a committed descriptor set):
 * fitsValueJsonLimit answers as fitsJsonLimit, and never builds a value's JSON view (it measures the view's text,
 * and not even that when the message alone proves it over the limit). Here and not beside the source: it reads committed data with Node.
 */
import { readFileSync } from 'node:fs';
import { createFileRegistry, fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import type { DecodedValue } from '../../src/core/flink';
import { ByteReader } from '../../src/core/io';
import { DEFAULT_PROTOBUF_SETTINGS, ProtobufValueCodec, stringifyWithMessageViews, type ProtobufSnapshotContent } from '../../src/core/protobuf';
import { fitsJsonLimit, fitsValueJsonLimit } from '../../src/core/report';
import { requireCommitted } from '../helpers/committed-data';

const set = fromBinary(
  FileDescriptorSetSchema,
  new Uint8Array(readFileSync(requireCommitted(path.resolve(process.cwd(), 'src/ui/demo-schema/events-changed.binpb')))),
);
const root = createFileRegistry(set).getMessage('fixtures.events.Event')!;
const codec = new ProtobufValueCodec({
  javaClass: 'x.Event',
  rootFullName: root.typeName,
  settings: { ...DEFAULT_PROTOBUF_SETTINGS },
  descriptorBytes: new Uint8Array(0),
  descriptorSha256: '',
  schema: { root },
} as unknown as ProtobufSnapshotContent);

/** A decoded Event whose `map<string, int32> counters = 6` has `n` entries ("k0000000" → i), and how often its JSON view was read. */
function eventWithCounters(n: number): { value: DecodedValue; jsonReads: () => number } {
  if (n > 1 << 14) throw new Error('two bytes of varint per value');
  const payload = new Uint8Array(n * 15);
  for (let i = 0, at = 0; i < n; i++) {
    payload.set([0x32, 13, 0x0a, 8], at);
    at += 4;
    for (const c of `k${String(i).padStart(7, '0')}`) payload[at++] = c.charCodeAt(0);
    payload.set([0x10, 0x80 | (i & 0x7f), (i >>> 7) & 0x7f], at);
    at += 3;
  }
  const frame = new Uint8Array(4 + payload.length);
  new DataView(frame.buffer).setInt32(0, payload.length);
  frame.set(payload, 4);
  const value = codec.decode(new ByteReader(frame), 'decode');
  const view = Object.getOwnPropertyDescriptor(value, 'json')!;
  let reads = 0;
  Object.defineProperty(value, 'json', { ...view, get: () => (reads++, view.get!.call(value)) });
  return { value, jsonReads: () => reads };
}

describe('fitsValueJsonLimit', () => {
  it('answers as fitsJsonLimit', () => {
    for (const [n, limit] of [
      [10, 1000],
      [100, 1000],
      [100, 10_000],
      [2000, 50_000],
      [2000, 10_000],
    ] as const) {
      expect(fitsValueJsonLimit(eventWithCounters(n).value, limit), `${n} entries, ${limit} characters`).toBe(fitsJsonLimit(eventWithCounters(n).value, limit));
    }
  });

  it('never makes the JSON view of a value its decoded message proves too long (a map of more entries than a quarter of the limit)', () => {
    const big = eventWithCounters(16_000);
    expect(fitsValueJsonLimit(big.value, 60_000)).toBe(false);
    expect(big.jsonReads()).toBe(0);
    // one that may fit is measured from its text, written from the message: its object tree is not built either
    const small = eventWithCounters(100);
    expect(fitsValueJsonLimit(small.value, 60_000)).toBe(true);
    expect(fitsValueJsonLimit(small.value, 100)).toBe(false);
    expect(small.jsonReads()).toBe(0);
  });
});

describe('stringifyWithMessageViews', () => {
  it('prints a document holding decoded messages (alone, in a list, under a key) as JSON.stringify(…, null, 2) with its indentation, never building their JSON views', () => {
    const one = eventWithCounters(3);
    const two = eventWithCounters(0);
    const three = eventWithCounters(2);
    const doc = {
      subtask: 0,
      key: { kind: 'string', value: `${'\u0000'}json-view-0-0` },
      value: one.value,
      list: { kind: 'list', items: [two.value, three.value] },
    };
    const text = stringifyWithMessageViews(doc, '    ');
    expect([one.jsonReads(), two.jsonReads(), three.jsonReads()]).toEqual([0, 0, 0]);
    expect(text).toBe(JSON.stringify(doc, null, 2).replace(/\n/g, '\n    '));
  });
});
