/**
 * Heap (HashMap NATIVE) state: every user key of a MapState shares one value range, so the values
 * table must attach each Protobuf frame to the value it was decoded into, not to an offset range.
 * Per entry, the values the app shows equal an independent full read with the full decoder.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshotRegistry, type DecodedValue, type StateEntry } from '../core/flink';
import { readStateEntries } from '../../tests/helpers/read-state-entries';
import { openSavepointInput } from '../core/io';
import { registerProtobufSnapshotReaders } from '../core/protobuf';
import { LocalInspector } from './local-inspector';
import { toInputFiles } from './sources';
import type { InputFile } from './inspector';
import { requireCommitted } from '../../tests/helpers/committed-data';

const NATIVE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/native/savepoint');
const STATES = ['events-by-name', 'last-event'];

function inputFiles(dir: string): InputFile[] {
  return readdirSync(dir).map((n) => ({ path: `sp/${n}`, blob: new Blob([readFileSync(path.join(dir, n))]) }));
}

/** The Protobuf messages inside a value, in read order. */
function listMessages(v: DecodedValue | null): Extract<DecodedValue, { kind: 'message' }>[] {
  if (v === null) return [];
  switch (v.kind) {
    case 'message':
      return [v];
    case 'list':
      return v.items.flatMap(listMessages);
    case 'ttl':
      return listMessages(v.value);
    default:
      return [];
  }
}

requireCommitted(path.join(NATIVE, '_metadata'));

describe('values of heap state (flink-1.20/hashmap/native)', () => {
  it.each(STATES)('%s: every row shows its own Protobuf values, as a full decode of the entry', async (state) => {
    const inspector = new LocalInspector();
    await inspector.open({ kind: 'files', files: inputFiles(NATIVE) });
    const inspection = await inspector.getInspection();
    const op = inspection.operators.find((o) => o.states.some((s) => s.name === state))!;
    const input = await openSavepointInput({ kind: 'files', name: 'sp', files: toInputFiles(inputFiles(NATIVE)) });
    const registry = createSnapshotRegistry();
    registerProtobufSnapshotReaders(registry);
    const reference: StateEntry[] = [];
    for await (const e of readStateEntries(input, registry, { operatorId: op.id, state })) reference.push(e);
    expect(reference.length).toBeGreaterThan(1);

    const page = await inspector.listEntries({ operatorId: op.id, state, offset: 0, limit: reference.length });
    expect(page.rows.map((r) => r.unknownFields)).toEqual(reference.map((e) => listMessages(e.value).reduce((n, m) => n + m.unknownFieldCount, 0)));
    for (let i = 0; i < reference.length; i++) {
      const expected = listMessages(reference[i]!.value);
      expect(expected.length, `${state} entry ${i}`).toBeGreaterThan(0);
      const detail = await inspector.getEntryDetail({ operatorId: op.id, state, index: i });
      expect(
        detail.values.map((v) => [v.typeName, v.unknownFields.length, v.json]),
        `${state} entry ${i}`,
      ).toEqual(expected.map((m) => [m.typeName, m.unknownFieldCount, m.json]));
    }
  });

  it('the stats scan counts one frame per saved value (every user key of a MapState)', async () => {
    const inspector = new LocalInspector();
    await inspector.open({ kind: 'files', files: inputFiles(NATIVE) });
    const inspection = await inspector.getInspection();
    const op = inspection.operators.find((o) => o.states.some((s) => s.name === 'events-by-name'))!;
    const stats = await inspector.getStateStats({ operatorId: op.id, state: 'events-by-name' });
    expect(stats.protobufDetail?.histogram.reduce((n, b) => n + b.count, 0)).toBe(stats.entries);
  });
});
