/**
 * The raw serializer snapshots the fixture writer stores in its savepoints (fixtures/snapshots/*.json, Flink
 * envelope + 0.1.0 payload) must be read by the core's registry into exactly the recorded class, root and settings.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshotRegistry } from '../../src/core/flink';
import { readNestedSerializerSnapshot } from '../../src/core/flink/snapshots/read-serializer-snapshot';
import { ByteReader } from '../../src/core/io';
import { getProtobufSnapshotContent, registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { FIXTURES_ROOT } from './load-fixture-manifests';

interface SnapshotFixture {
  name: string;
  snapshotClass: string;
  snapshotVersion: number;
  javaClass: string;
  messageType: string;
  deterministicSerialization: boolean;
  maxMessageSize: number;
  recursionLimit: number;
  byteLength: number;
  hex: string;
}

const doc = JSON.parse(readFileSync(join(FIXTURES_ROOT, 'snapshots', 'protobuf-0.1.0-snapshots.json'), 'utf8')) as { snapshots: SnapshotFixture[] };

describe('0.1.0-format snapshots written by the fixture writer', () => {
  it('lists the three serializer configurations the fixture jobs use', () => {
    expect(doc.snapshots.map((s) => s.name)).toEqual(['event-default', 'event-large', 'rule-broadcast']);
  });

  for (const fx of doc.snapshots) {
    it(`${fx.name}: read back into class, root and settings, consuming every byte`, () => {
      const bytes = new Uint8Array(Buffer.from(fx.hex, 'hex'));
      expect(bytes.length).toBe(fx.byteLength);
      const registry = createSnapshotRegistry();
      registerProtobufSnapshotReaders(registry);
      const r = new ByteReader(bytes, { file: `${fx.name}.snapshot` });
      const snapshot = readNestedSerializerSnapshot(r, registry);
      expect(r.remaining).toBe(0);
      expect(snapshot.className).toBe(fx.snapshotClass);
      expect(snapshot.version).toBe(fx.snapshotVersion);
      const content = getProtobufSnapshotContent(snapshot);
      expect(content).toBeDefined();
      expect(content?.javaClass).toBe(fx.javaClass);
      expect(content?.rootFullName).toBe(fx.messageType);
      expect(content?.settings).toMatchObject({
        deterministic: fx.deterministicSerialization,
        maxMessageSize: fx.maxMessageSize,
        recursionLimit: fx.recursionLimit,
      });
    });
  }
});
