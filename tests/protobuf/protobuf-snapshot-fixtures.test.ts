/**
 * The fixture writer's raw 0.1.0 snapshots (fixtures/snapshots): each is read through the
 * registry with the recorded names and settings, and the core's writer reproduces it byte for byte.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter, formatHex } from '../../src/core/io';
import { createSnapshotRegistry } from '../../src/core/flink';
import { readNestedSerializerSnapshot } from '../../src/core/flink/snapshots/read-serializer-snapshot';
import { computeSha256, getProtobufSnapshotContent, registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { writeProtobufSnapshot } from '../../src/core/protobuf/write-protobuf-snapshot';
import { hex } from './protobuf-test-schemas';
import { requireCommitted } from '../helpers/committed-data';

const FILE = path.resolve(process.cwd(), 'fixtures/snapshots/protobuf-0.1.0-snapshots.json');
const exists = existsSync(FILE);
if (!exists) console.warn(`skipping Protobuf snapshot fixture tests: ${FILE} is absent`);
/** One snapshot the fixture writer's Java code wrote, with what it knows about it. */
interface FixtureSnapshot {
  name: string;
  hex: string;
  byteLength: number;
  sha256: string;
  javaClass: string;
  messageType: string;
  deterministicSerialization: boolean;
  maxMessageSize: number;
  recursionLimit: number;
}
const snapshots: FixtureSnapshot[] = exists ? (JSON.parse(readFileSync(FILE, 'utf8')) as { snapshots: FixtureSnapshot[] }).snapshots : [];

requireCommitted(FILE);

describe('fixture writer snapshots (protobuf-0.1.0-snapshots.json)', () => {
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  it.each(snapshots.map((s) => [s.name, s]))('%s', (_name, s) => {
    const bytes = hex(s.hex);
    expect(bytes.length).toBe(s.byteLength);
    expect(formatHex(computeSha256(bytes))).toBe(s.sha256);
    const snapshot = readNestedSerializerSnapshot(new ByteReader(bytes), registry);
    expect(snapshot.range).toEqual({ offset: 0, length: s.byteLength });
    expect(snapshot.details).toMatchObject({
      javaClass: s.javaClass,
      rootFullName: s.messageType,
      settings: { deterministic: s.deterministicSerialization, maxMessageSize: s.maxMessageSize, recursionLimit: s.recursionLimit },
    });
    const content = getProtobufSnapshotContent(snapshot)!;
    const w = new ByteWriter();
    writeProtobufSnapshot(w, {
      javaClass: content.javaClass,
      rootFullName: content.rootFullName,
      settings: content.settings,
      descriptorSet: content.descriptorBytes,
    });
    expect(formatHex(w.finish())).toBe(s.hex);
  });
});
