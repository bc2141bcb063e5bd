import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshotRegistry, openSavepoint } from '../../src/core/flink';
import { scanProtobufStateValues } from '../../src/core/compat';
import { type ScannedValue } from '../../src/core/compat/value-scan-types';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { openNodeInput } from '../../src/cli/sources';

const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');

/** Fields in one order: the structural scan logs them in its own order, the decoder in the message's. */
function normalize(v: ScannedValue): ScannedValue {
  const order = <T extends { message: string; number: number; wireType: number }>(xs: readonly T[]) =>
    [...xs].sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : a.number - b.number || a.wireType - b.wireType));
  return { ...v, unknownFields: order(v.unknownFields), knownFields: order(v.knownFields) };
}

describe('scanProtobufStateValues', () => {
  it('with onValue hands every value over and keeps none, counting the same values a collecting scan returns', async () => {
    const files = await openNodeInput(SAVEPOINT);
    const opened = await openSavepoint(files);
    const registry = createSnapshotRegistry();
    registerProtobufSnapshotReaders(registry);
    const query = { operatorId: 'int-keyed', state: 'processed-events' };
    const collected = await scanProtobufStateValues(opened, registry, query);
    const handed: ScannedValue[] = [];
    const streamed = await scanProtobufStateValues(opened, registry, { ...query, onValue: (v) => handed.push(v) });
    expect(collected.values.length).toBeGreaterThan(0);
    expect(collected.scannedValues).toBe(collected.values.length);
    expect(streamed.values).toEqual([]);
    expect(streamed.scannedValues).toBe(collected.values.length);
    expect(streamed.entries).toBe(collected.entries);
    expect(handed).toEqual(collected.values);
    // a value of the fixture carries unknown field 100 (fixtures/README.md)
    expect(handed.some((v) => v.unknownFields.some((u) => u.number === 100 && u.message === 'fixtures.events.Event'))).toBe(true);
  });

  it('summarizes every value of every Protobuf state as the full decoder does', async () => {
    const files = await openNodeInput(SAVEPOINT);
    const opened = await openSavepoint(files);
    const registry = createSnapshotRegistry();
    registerProtobufSnapshotReaders(registry);
    let compared = 0;
    for (const query of [
      { operatorId: 'int-keyed', state: 'processed-events' },
      { operatorId: 'int-keyed', state: 'last-event' },
    ]) {
      const scanned = await scanProtobufStateValues(opened, registry, query);
      const decoded = await scanProtobufStateValues(opened, registry, { ...query, read: 'decode' });
      expect(scanned.values.map(normalize)).toEqual(decoded.values.map(normalize));
      compared += scanned.values.length;
    }
    expect(compared).toBeGreaterThan(5);
  });
});
