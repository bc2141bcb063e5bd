/**
 * Test helpers: compile the .proto files under src/core/protobuf/testdata with the buf CLI (from
 * npm) into FileDescriptorSets — no hand-written descriptor bytes — and build frames/snapshots.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ByteWriter } from '../../src/core/io';
import { DEFAULT_PROTOBUF_SETTINGS, normalizeDescriptorSet, parseDescriptorSet, stripDerivedJsonNames, type ProtobufSettings } from '../../src/core/protobuf';
import { writeProtobufSnapshot } from '../../src/core/protobuf/write-protobuf-snapshot';
import { type NormalizedDescriptorSet } from '../../src/core/protobuf/normalize-descriptor-set';

const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const bufBin = path.join(repoRoot, 'node_modules/.bin/buf');
const outDir = mkdtempSync(path.join(tmpdir(), 'protobuf-test-schemas-'));
const cache = new Map<string, Uint8Array>();

/** `buf build src/core/protobuf/testdata/<name> --as-file-descriptor-set` (json_name included, as protoc writes). */
export function buildTestDescriptorSet(name: string): Uint8Array {
  let bytes = cache.get(name);
  if (bytes === undefined) {
    const out = path.join(outDir, `${name}.binpb`);
    execFileSync(bufBin, ['build', path.join(repoRoot, 'src/core/protobuf/testdata', name), '--as-file-descriptor-set', '-o', out], { cwd: repoRoot });
    bytes = new Uint8Array(readFileSync(out));
    cache.set(name, bytes);
  }
  return bytes;
}

/** The descriptors as Java gencode embeds them (derived json_name removed). */
export function buildGencodeDescriptorSet(name: string) {
  return stripDerivedJsonNames(parseDescriptorSet(buildTestDescriptorSet(name)));
}

export function loadTestSchema(name: string, rootFullName: string): NormalizedDescriptorSet {
  const set = buildGencodeDescriptorSet(name);
  // buf puts exactly the module's files and their imports into the set, so it is the root's closure
  return normalizeDescriptorSet(set, rootFullName);
}

export const ENVELOPE_CLASS = 'io.github.flink.gcp.protobuf.snapshotgenerated.SnapshotMessages$Envelope';
export const ENVELOPE_NAME = 'flink.protobuf.snapshot.Envelope';
export const ENTRY_CLASS = 'io.github.flink.gcp.protobuf.runtimeapp.generated.RuntimeMessages$Entry';
export const ENTRY_NAME = 'flink.protobuf.runtime.Entry';

/** The versioned Envelope snapshot (824 bytes with default settings). */
export function writeEnvelopeSnapshot(settings: ProtobufSettings = DEFAULT_PROTOBUF_SETTINGS): Uint8Array {
  const w = new ByteWriter();
  writeProtobufSnapshot(w, { javaClass: ENVELOPE_CLASS, rootFullName: ENVELOPE_NAME, settings, descriptorSet: buildGencodeDescriptorSet('snapshot') });
  return w.finish();
}

/** `frame(len, bytes…)`: 4-byte big-endian length followed by those bytes. */
export function frame(length: number, ...bytes: number[]): Uint8Array {
  return new ByteWriter().i32(length).bytes(bytes).finish();
}

export function hex(s: string): Uint8Array {
  const clean = s.replace(/[^0-9a-f]/gi, '');
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/**
 * Valid serializer.proto RecursiveMessage payloads with nested messages, packed numbers, a map entry,
 * groups and unknown fields (including an unknown group and a reused number): seeds for mutation tests.
 */
export const RECURSIVE_SAMPLE_PAYLOADS: readonly Uint8Array[] = [
  '0a 05 2a 03 01 02 03 32 02 01 02 32 01 09',
  '1a 07 0a 01 6b 12 02 0a 00 22 05 0a 01 6b 10 02',
  'a3 06 08 01 ab 06 2a 01 00 ac 06 a4 06 3a 02 01 02 48 05',
  '42 01 61 a0 06 01 0d 01 00 00 00 71 00 00 00 00 00 00 f8 7f',
].map(hex);
