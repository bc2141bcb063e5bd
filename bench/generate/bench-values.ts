/**
 * The Protobuf values of the generated savepoints: a pool of `bench.Event` messages encoded with
 * @bufbuild/protobuf from the buf-compiled bench-events.proto, deterministic (seeded), of varied
 * size and shape (nested messages, repeated fields, a map, bytes of 0–1.5 KiB).
 */
import { create, createFileRegistry, fromBinary, toBinary, type DescMessage } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { readFileSync } from 'node:fs';
import { buildDescriptorSet } from './build-descriptor-set';

export const BENCH_ROOT = 'bench.Event';
export const BENCH_JAVA_CLASS = 'dev.savepointinspector.bench.BenchEvents$Event';

export interface BenchSchema {
  descriptorSet: Uint8Array;
  event: DescMessage;
}

export function loadBenchSchema(): BenchSchema {
  const proto = readFileSync(new URL('./bench-events.proto', import.meta.url), 'utf8');
  const descriptorSet = buildDescriptorSet({ 'bench/bench_events.proto': proto });
  const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, descriptorSet));
  const event = registry.getMessage(BENCH_ROOT);
  if (!event) throw new Error(`bench-events.proto does not declare ${BENCH_ROOT}`);
  return { descriptorSet, event };
}

/** A small deterministic PRNG (mulberry32). */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CITIES = ['Berlin', 'Lisbon', 'Osaka', 'Toronto', 'Nairobi', 'Lima', 'Oslo', 'Pune'];

/** `count` encoded Event payloads (average ≈ 1 KiB). */
export function encodeValuePool(schema: BenchSchema, count: number, seed = 7): Uint8Array[] {
  const rnd = createRandom(seed);
  const pick = (n: number) => Math.floor(rnd() * n);
  const pool: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const attributes = Array.from({ length: pick(12) }, (_, j) => ({ key: `attr-${j}`, value: `value-${pick(1_000_000)}-${'x'.repeat(pick(40))}` }));
    const counters: Record<string, bigint> = {};
    for (let j = pick(8); j > 0; j--) counters[`counter-${j}`] = BigInt(pick(1_000_000_000));
    const payload = new Uint8Array(pick(1536));
    for (let j = 0; j < payload.length; j++) payload[j] = pick(256);
    const msg = create(schema.event, {
      id: `event-${i}`,
      timestampMs: 1_700_000_000_000n + BigInt(pick(1_000_000_000)),
      name: `name-${pick(10_000)}`,
      kind: pick(4),
      attributes,
      location: { lat: rnd() * 180 - 90, lon: rnd() * 360 - 180, city: CITIES[pick(CITIES.length)]! },
      payload,
      counters,
      samples: Array.from({ length: pick(32) }, () => pick(100_000) - 50_000),
    });
    pool.push(toBinary(schema.event, msg));
  }
  return pool;
}
