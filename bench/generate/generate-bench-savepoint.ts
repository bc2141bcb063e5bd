/**
 * Writes a large, format-exact canonical savepoint for the benchmarks (outside the repo, e.g.
 * /tmp/bench-savepoints): one keyed operator (uid `bench-events`, String keys `user-<n>` placed in
 * their real Flink key groups, max parallelism 128), one state file per subtask holding the keyed
 * header (core writers: protobuf snapshot, modified UTF-8) and one canonical key-group block per
 * key group with two Protobuf ValueStates (`events` for every key, `last-event` for every 4th),
 * and a `_metadata` written by the core's writer with the CheckpointProperties trailer of a real
 * Flink 2.3 savepoint from fixtures/. A manifest records what was written, so a folder is reused.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { ByteWriter } from '../../src/core/io';
import {
  computeKeyGroup,
  computeKeyGroupRangeForSubtask,
  computeOperatorId,
  readCheckpointMetadata,
  writeCheckpointMetadata,
  type OperatorState,
  type SubtaskState,
} from '../../src/core/flink';
import { BENCH_JAVA_CLASS, BENCH_ROOT, createRandom, encodeValuePool, loadBenchSchema } from './bench-values';
import { writeKeyedStateHeader, type BenchProtobufType } from './write-keyed-state-header';
import { toGencodeDescriptorSet } from './to-gencode-descriptor-set';

export const BENCH_OPERATOR_UID = 'bench-events';
export const BENCH_STATES = ['events', 'last-event'] as const;
const GENERATOR_VERSION = 1;
const DEFAULT_MAX_PARALLELISM = 128;
const POOL_SIZE = 4096;
const END_OF_KEY_GROUP_MARK = 0xffff;
const END_OF_STATE_RUN_FLAG = 0x80;
const TRAILER_SOURCE = new URL('../../fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint/_metadata', import.meta.url);

export interface BenchSavepointOptions {
  dir: string;
  /** approximate total size of the state files */
  targetBytes: number;
  /** number of subtasks = state files */
  parallelism: number;
  /** key groups (default 128); few key groups make large key-group blocks */
  maxParallelism?: number;
  seed?: number;
  /** another Protobuf type and its encoded values (default: bench.Event from bench-events.proto) */
  type?: BenchProtobufType & { pool: Uint8Array[] };
  /**
   * write the default type's descriptors as protoc's Java gencode embeds them (no buf image extension,
   * no derived json_name),
   * so Flink's 0.x serializer with the protoc-compiled bench.Event class restores the states (figure 6)
   */
  gencodeDescriptors?: boolean;
}

export interface BenchSavepointManifest {
  generatorVersion: number;
  targetBytes: number;
  parallelism: number;
  seed: number;
  totalBytes: number;
  metadataBytes: number;
  keys: number;
  entries: number;
  operatorId: string;
  files: { name: string; size: number }[];
  /** present (true) only when generated with `gencodeDescriptors` */
  gencodeDescriptors?: boolean;
}

/** Returns the manifest of `dir` when it was generated with the same options, else generates it. */
export function ensureBenchSavepoint(options: BenchSavepointOptions): BenchSavepointManifest {
  const manifestPath = path.join(options.dir, 'bench-manifest.json');
  if (existsSync(manifestPath)) {
    const m = JSON.parse(readFileSync(manifestPath, 'utf8')) as BenchSavepointManifest;
    if (
      m.generatorVersion === GENERATOR_VERSION &&
      m.targetBytes === options.targetBytes &&
      m.parallelism === options.parallelism &&
      m.seed === (options.seed ?? 1) &&
      (m.gencodeDescriptors ?? false) === (options.gencodeDescriptors ?? false)
    )
      return m;
  }
  return generateBenchSavepoint(options);
}

export function generateBenchSavepoint(options: BenchSavepointOptions): BenchSavepointManifest {
  const seed = options.seed ?? 1;
  rmSync(options.dir, { recursive: true, force: true });
  mkdirSync(options.dir, { recursive: true });
  let type = options.type;
  if (!type) {
    const schema = loadBenchSchema();
    const descriptorSet = options.gencodeDescriptors ? toGencodeDescriptorSet(schema.descriptorSet) : schema.descriptorSet;
    type = { javaClass: BENCH_JAVA_CLASS, rootFullName: BENCH_ROOT, descriptorSet, pool: encodeValuePool(schema, POOL_SIZE, seed) };
  }
  const pool = type.pool;
  const header = writeKeyedStateHeader(BENCH_STATES, type);
  const avgPayload = pool.reduce((s, p) => s + p.length, 0) / pool.length;
  // key ≈ 1 + 1 + 10 + 1 bytes, value = 4-byte frame length + payload, plus two i32 lengths; 1.25 values per key
  const perKey = 1.25 * (13 + 4 + avgPayload + 8);
  const keys = Math.max(1, Math.ceil(Math.max(0, options.targetBytes - header.length * options.parallelism) / perKey));
  const MAX_PARALLELISM = options.maxParallelism ?? DEFAULT_MAX_PARALLELISM;
  const byKeyGroup: number[][] = Array.from({ length: MAX_PARALLELISM }, () => []);
  for (let i = 0; i < keys; i++) byKeyGroup[computeKeyGroup({ kind: 'string', value: `user-${i}` }, MAX_PARALLELISM)]!.push(i);
  const rnd = createRandom(seed * 31 + 1);
  const files: BenchSavepointManifest['files'] = [];
  const subtasks: SubtaskState[] = [];
  let entries = 0;
  for (let index = 0; index < options.parallelism; index++) {
    const range = computeKeyGroupRangeForSubtask(index, options.parallelism, MAX_PARALLELISM);
    const name = formatUuid(rnd);
    const fd = openSync(path.join(options.dir, name), 'w');
    let pos = 0;
    const offsets: number[] = [];
    try {
      pos += writeSync(fd, header);
      for (let kg = range.start; kg <= range.end; kg++) {
        const block = writeKeyGroupBlock(kg, byKeyGroup[kg]!, pool);
        offsets.push(block.entries === 0 ? 0 : pos);
        if (block.entries > 0) pos += writeAll(fd, block.bytes);
        entries += block.entries;
      }
    } finally {
      closeSync(fd);
    }
    files.push({ name, size: pos });
    subtasks.push({
      index,
      finished: false,
      managedOperatorState: null,
      rawOperatorState: null,
      managedKeyedState: { kind: 'key-groups', code: 7, range, offsets, delegate: { kind: 'relative-file', relativePath: name, size: pos } },
      rawKeyedState: null,
      inputChannelStateCount: 0,
      resultSubpartitionStateCount: 0,
    });
  }
  const template = readFileSync(TRAILER_SOURCE);
  const parsed = readCheckpointMetadata(new Uint8Array(template), '_metadata');
  const trailer = parsed.properties?.trailerOffset !== undefined ? new Uint8Array(template.subarray(parsed.properties.trailerOffset)) : undefined;
  const operator: OperatorState = {
    id: computeOperatorId(BENCH_OPERATOR_UID),
    ...(parsed.version >= 5 ? { name: 'Bench events', uid: BENCH_OPERATOR_UID } : {}),
    parallelism: options.parallelism,
    maxParallelism: MAX_PARALLELISM,
    coordinatorState: null,
    fullyFinished: false,
    subtasks,
  };
  const metadata = writeCheckpointMetadata({ version: parsed.version, checkpointId: 42n, operators: [operator], ...(trailer ? { trailer } : {}) });
  writeFileSync(path.join(options.dir, '_metadata'), metadata);
  const manifest: BenchSavepointManifest = {
    generatorVersion: GENERATOR_VERSION,
    targetBytes: options.targetBytes,
    parallelism: options.parallelism,
    seed,
    totalBytes: metadata.length + files.reduce((s, f) => s + f.size, 0),
    metadataBytes: metadata.length,
    keys,
    entries,
    operatorId: operator.id,
    files,
    ...(options.gencodeDescriptors ? { gencodeDescriptors: true } : {}),
  };
  writeFileSync(path.join(options.dir, 'bench-manifest.json'), JSON.stringify(manifest, null, 2));
  return manifest;
}

/** One canonical key-group block: run of state 0 (every key), run of state 1 (every 4th key), end mark. */
function writeKeyGroupBlock(kg: number, keys: readonly number[], pool: readonly Uint8Array[]): { bytes: Uint8Array; entries: number } {
  const w = new ByteWriter();
  let entries = 0;
  const runs = [keys, keys.filter((k) => k % 4 === 0)];
  let first = true;
  runs.forEach((run, stateId) => {
    if (run.length === 0) return;
    w.u16(stateId);
    first = false;
    run.forEach((k, i) => {
      const key = new ByteWriter().u8(kg).stringValue(`user-${k}`).u8(0).finish();
      if (i === run.length - 1) key[0] = key[0]! | END_OF_STATE_RUN_FLAG;
      const payload = pool[(k * (stateId + 1)) % pool.length]!;
      w.i32(key.length)
        .bytes(key)
        .i32(4 + payload.length)
        .i32(payload.length)
        .bytes(payload);
      entries++;
    });
  });
  if (first) return { bytes: new Uint8Array(0), entries: 0 };
  w.u16(END_OF_KEY_GROUP_MARK);
  return { bytes: w.finish(), entries };
}

function writeAll(fd: number, bytes: Uint8Array): number {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
  return done;
}

function formatUuid(rnd: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(rnd() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}
