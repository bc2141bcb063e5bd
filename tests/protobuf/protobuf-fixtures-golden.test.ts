/**
 * Golden test over the fixture savepoints written by real Flink (fixtures/savepoints, the fixture
 * writer's manifests): every Protobuf value of every readable state is decoded with the
 * descriptors of its own snapshot and compared with the manifest (payload SHA-256, JSON view,
 * unknown fields, size); the structural scan must agree with the full decode on each of them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openNodeInput } from '../../src/cli/sources';
import { createSnapshotRegistry } from '../../src/core/flink';
import { formatHex } from '../../src/core/io';
import { readStateEntries } from '../helpers/read-state-entries';
import {
  computeSha256,
  getProtobufScanIndex,
  listProtobufValueDetails,
  registerProtobufSnapshotReaders,
  scanProtobufPayload,
  type ProtobufValueDetail,
} from '../../src/core/protobuf';
import { requireCommittedCases } from '../helpers/committed-data';

const FIXTURES = path.resolve(process.cwd(), 'fixtures/savepoints');
const manifests = existsSync(FIXTURES)
  ? readdirSync(FIXTURES).flatMap((f) =>
      readdirSync(path.join(FIXTURES, f)).flatMap((b) => readdirSync(path.join(FIXTURES, f, b)).map((c) => path.join(FIXTURES, f, b, c))),
    )
  : [];
const readable = manifests.filter(
  (dir) => existsSync(path.join(dir, 'manifest.json')) && JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')).readableByInspector === true,
);
if (readable.length === 0) console.warn(`skipping Protobuf fixture golden tests: no readable fixture savepoints under ${FIXTURES}`);

interface ManifestValue {
  json: unknown;
  unknownFields: { number: number; wireType: number; varint?: string; hex?: string }[];
  payloadSize: number;
}

/** A state of a fixture manifest: the SHA-256 of each value, per keyed entry (`values` instead of `value` for list states) or per operator-state partition. */
interface ManifestState {
  entries?: { value: string; values?: string[] }[];
  partitions?: { values?: string[]; entries?: { value: string }[] }[];
}

function expectedHashes(state: ManifestState): string[] {
  const out: string[] = [];
  for (const e of state.entries ?? []) out.push(...(e.values ?? [e.value]));
  for (const p of state.partitions ?? []) {
    out.push(...(p.values ?? []));
    for (const e of p.entries ?? []) out.push(e.value);
  }
  return out.sort();
}

requireCommittedCases('fixture savepoint readable by the inspector (fixtures/savepoints/**/manifest.json)', readable);

describe('Protobuf values of the fixture savepoints', () => {
  it.each(readable.map((dir) => [path.relative(FIXTURES, dir), dir]))('%s', async (_name, dir) => {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    const files = await openNodeInput(path.join(dir, manifest.files.savepointFolder));
    const registry = createSnapshotRegistry();
    registerProtobufSnapshotReaders(registry);
    let checkedStates = 0;
    for (const op of manifest.operators) {
      for (const state of op.states) {
        if (state.valueSerializer?.snapshotClass !== 'io.github.flink.gcp.protobuf.ProtobufTypeSerializerSnapshot') continue;
        const details: ProtobufValueDetail[] = [];
        // each decoded message carries the decoder's detail
        for await (const entry of readStateEntries(files, registry, { operatorId: op.uid, state: state.name }))
          details.push(...listProtobufValueDetails(entry.value).map((v) => v.detail));
        const hashes = details.map((d) => formatHex(computeSha256(d.payload))).sort();
        expect(hashes, `${op.uid}/${state.name}`).toEqual(expectedHashes(state));
        for (const d of details) {
          const expected: ManifestValue = manifest.values[formatHex(computeSha256(d.payload))];
          expect(d.typeName).toBe(state.valueSerializer.messageType);
          expect(d.payloadSize).toBe(expected.payloadSize);
          expect(d.json).toEqual(expected.json);
          const rootUnknown = d.message.unknown.map((u) => ({
            number: u.number,
            wireType: u.wireType,
            ...(u.wireType === 0 ? { varint: String(u.value) } : {}),
            ...(u.wireType === 2 ? { hex: formatHex(u.value) } : {}),
          }));
          expect(rootUnknown).toEqual(expected.unknownFields);
          const scan = scanProtobufPayload(d.payload, getProtobufScanIndex(d.message.desc), { ...state.valueSerializer.settings });
          expect(scan.error).toBeUndefined();
          expect([scan.depth, scan.unknownFields, scan.large]).toEqual([d.depth, d.unknownFields.length, d.payloadSize > 4096]);
          // values written by protobuf-java: known fields in number order, then unknown fields, so no value warning about the writer's field order
          expect([scan.reusedDeclaredNumbers, scan.numbersTooLarge]).toEqual([0, 0]);
        }
        checkedStates++;
      }
    }
    expect(checkedStates).toBeGreaterThan(0);
  });
});
