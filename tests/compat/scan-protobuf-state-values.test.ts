import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshotRegistry, openSavepoint } from '../../src/core/flink';
import { registerRecordingProtobufReaders, scanProtobufStateValues, type ScannedValue } from '../../src/core/compat';
import type { ProtobufValueDetail } from '../../src/core/protobuf';
import { openNodeInput } from '../../src/cli/sources';

const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');

describe('scanProtobufStateValues', () => {
  it('with onValue hands every value over and keeps none, counting the same values a collecting scan returns', async () => {
    const files = await openNodeInput(SAVEPOINT);
    const opened = await openSavepoint(files);
    const pending: ProtobufValueDetail[] = [];
    const registry = createSnapshotRegistry();
    registerRecordingProtobufReaders(registry, (d) => pending.push(d));
    const query = { operatorId: 'int-keyed', state: 'processed-events', opened };
    const collected = await scanProtobufStateValues(files, registry, pending, query);
    const handed: ScannedValue[] = [];
    const streamed = await scanProtobufStateValues(files, registry, pending, { ...query, onValue: (v) => handed.push(v) });
    expect(collected.values.length).toBeGreaterThan(0);
    expect(collected.scannedValues).toBe(collected.values.length);
    expect(streamed.values).toEqual([]);
    expect(streamed.scannedValues).toBe(collected.values.length);
    expect(streamed.entries).toBe(collected.entries);
    expect(handed).toEqual(collected.values);
    // a value of the fixture carries unknown field 100 (fixtures/README.md)
    expect(handed.some((v) => v.unknownFields.some((u) => u.number === 100 && u.message === 'fixtures.events.Event'))).toBe(true);
  });
});
