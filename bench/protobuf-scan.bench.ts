/**
 * Protobuf throughput benchmark (not a test): plain copy, the structural scan, @bufbuild/protobuf
 * fromBinary and the full protobuf-java-semantics decode, over the same payloads.
 * Run: npx tsx bench/protobuf-scan.bench.ts   (results: docs/benchmarks.md, "Protobuf scan")
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fromBinary } from '@bufbuild/protobuf';
import {
  buildProtobufScanIndex,
  createEmptyScan,
  scanProtobufPayloadInto,
  decodeProtobufPayload,
  normalizeDescriptorSet,
  parseDescriptorSet,
  scanProtobufPayload,
  stripDerivedJsonNames,
} from '../src/core/protobuf';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const out = path.join(mkdtempSync(path.join(tmpdir(), 'pb-bench-')), 'schema.binpb');
function schema(dir: string, fullName: string) {
  execFileSync(path.join(root, 'node_modules/.bin/buf'), ['build', path.join(root, 'src/core/protobuf/testdata', dir), '--as-file-descriptor-set', '-o', out]);
  return normalizeDescriptorSet(stripDerivedJsonNames(parseDescriptorSet(new Uint8Array(readFileSync(out)))), fullName).root;
}

/** Entry{ordinal, count, payload="vvvvvvvv", child{count=7}} + unknown 100:99, as in the savepoint fixtures (21 bytes). */
function entryPayload(o: number): Uint8Array {
  return Uint8Array.from([0x08, o & 0x7f, 0x10, 0x01, 0x1a, 0x08, ...new Array(8).fill(0x76), 0x22, 0x02, 0x10, 0x07, 0xa0, 0x06, 0x63]);
}

/** RecursiveMessage with a 600-byte bytes field, text, packed numbers, two children and a map entry. */
function largePayload(i: number): Uint8Array {
  const b: number[] = [];
  const len = (tag: number, body: number[]) => b.push(tag, ...varint(body.length), ...body);
  const child = [0x42, 0x03, 0x61, 0x62, 0x63, 0x58, i & 0x7f];
  len(0x0a, child);
  len(0x12, child);
  len(0x12, child);
  len(0x1a, [0x0a, 0x01, 0x6b, 0x12, child.length, ...child]);
  len(0x2a, new Array(600).fill(i & 0xff));
  len(
    0x3a,
    Array.from({ length: 50 }, (_, k) => k),
  );
  len(0x42, new Array(200).fill(0x78));
  return Uint8Array.from(b);
}
function varint(n: number): number[] {
  const o: number[] = [];
  while (n > 0x7f) {
    o.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  o.push(n);
  return o;
}

function measure(name: string, bytes: number, fn: () => void): string {
  fn(); // warm-up
  const runs: number[] = [];
  for (let i = 0; i < 9; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    runs.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  runs.sort((a, b) => a - b);
  const median = bytes / 1e6 / runs[4]!;
  const best = bytes / 1e6 / runs[0]!;
  return `| ${name} | ${median.toFixed(0)} MB/s | ${best.toFixed(0)} MB/s |`;
}

function run(label: string, desc: ReturnType<typeof schema>, payloads: Uint8Array[]): void {
  const total = payloads.reduce((n, p) => n + p.length, 0);
  const index = buildProtobufScanIndex(desc);
  const limits = { maxMessageSize: 67108864, recursionLimit: 100 };
  const joined = new Uint8Array(total);
  let at = 0;
  for (const p of payloads) {
    joined.set(p, at);
    at += p.length;
  }
  let sink = 0;
  console.log(`\n${label}: ${payloads.length} payloads, ${(total / 1e6).toFixed(1)} MB, average ${(total / payloads.length).toFixed(0)} bytes`);
  console.log('| operation | median of 9 | best of 9 |\n|---|---|---|');
  console.log(
    measure('plain copy of all payloads at once (Uint8Array.slice)', total, () => {
      sink += joined.slice().length;
    }),
  );
  console.log(
    measure('plain copy, one slice per payload', total, () => {
      for (const p of payloads) sink += p.slice().length;
    }),
  );
  console.log(
    measure('read every byte of every payload (sum loop)', total, () => {
      for (const p of payloads) {
        let x = 0;
        for (let i = 0; i < p.length; i++) x += p[i]!;
        sink += x;
      }
    }),
  );
  console.log(
    measure('structural scan, one result object per value (scanProtobufPayload)', total, () => {
      for (const p of payloads) sink += scanProtobufPayload(p, index, limits).depth;
    }),
  );
  const reused = createEmptyScan();
  console.log(
    measure('structural scan, whole-state path (scanProtobufPayloadInto)', total, () => {
      for (const p of payloads) {
        scanProtobufPayloadInto(reused, p, index, limits);
        sink += reused.depth;
      }
    }),
  );
  console.log(
    measure('@bufbuild/protobuf fromBinary', total, () => {
      for (const p of payloads) sink += Object.keys(fromBinary(desc, p)).length;
    }),
  );
  console.log(
    measure('full decode (decodeProtobufPayload)', total, () => {
      for (const p of payloads) sink += decodeProtobufPayload(p, desc, limits).depth;
    }),
  );
  if (sink === -1) console.log(sink);
}

console.log(`node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'})`);
run(
  'Entry (runtime.proto, fixture-shaped)',
  schema('runtime', 'flink.protobuf.runtime.Entry'),
  Array.from({ length: 200_000 }, (_, i) => entryPayload(i)),
);
run(
  'RecursiveMessage (serializer.proto, ~1 KB)',
  schema('serializer', 'flink.protobuf.serializer.RecursiveMessage'),
  Array.from({ length: 5_000 }, (_, i) => largePayload(i)),
);
