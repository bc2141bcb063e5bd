/**
 * Golden test over the Table/SQL savepoint real Flink 1.20.3 (Table planner and runtime) wrote (issue #36;
 * fixtures/table-writer, committed under fixtures/table-savepoints): a row-time over aggregate over rows with a
 * `MAP<STRING, INT>` column, whose watermark lags by an hour so that every input row waits in its `inputState`
 * (row time → list of input rows). Those rows are written by a RowDataSerializer with a nested MapDataSerializer
 * (`MapDataSerializer$MapDataSerializerSnapshot`): the snapshot is read as such, every state of the savepoint decodes
 * fully, and the decoded rows (key, key group, row time, each row's fields with its map) equal the manifest, which
 * the writer computed from the job's input.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { createSnapshotRegistry, inspectSavepoint, openSavepoint, type SerializerSnapshot } from '../../src/core/flink';
import { openFolderSavepoint } from '../helpers/open-folder-savepoint';
import { requireCommitted } from '../helpers/committed-data';

const DIR = requireCommitted(join(process.cwd(), 'fixtures', 'table-savepoints', 'flink-1.20', 'hashmap'));

interface Manifest {
  versions: { flink: string };
  mapDataSnapshotClass: string;
  state: string;
  rowFields: string[];
  entries: {
    key: string;
    keyGroup: number;
    rowtime: number;
    rows: { user_name: string; tags: Record<string, number>; qty: number; rtEpochMillis: number }[];
  }[];
}
interface Value {
  kind: string;
  value?: string | number;
  text?: string;
  items?: Value[];
  entries?: { key: Value; value: Value }[];
  fields?: { name: string; type: string; value: Value }[];
}
type Plain = string | number | null | Plain[] | { [k: string]: Plain };

/** A decoded value in plain terms: rows as their field values in order, maps as objects (a map's order is not its meaning). */
function plain(v: Value): Plain {
  switch (v.kind) {
    case 'row':
      return v.fields!.map((f) => plain(f.value));
    case 'map':
      return Object.fromEntries(v.entries!.map((e) => [String(plain(e.key)), plain(e.value)]));
    case 'list':
      return v.items!.map(plain);
    case 'string':
    case 'int':
    case 'long':
      return v.value!;
    case 'other':
      return v.text!;
    case 'null':
      return null;
    default:
      throw new Error(`unexpected value kind ${v.kind}`);
  }
}

function flatten(s: SerializerSnapshot): SerializerSnapshot[] {
  return [s, ...s.nested.flatMap(flatten)];
}

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => void (out += t), stderr: (t) => void (err += t) });
  return { code, out, err };
}

describe('fixtures/table-savepoints/flink-1.20/hashmap (Table/SQL over aggregate, MapData in state)', () => {
  const manifest = JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as Manifest;

  it('the input rows are written by a RowDataSerializer with a nested MapDataSerializer snapshot, read as such; every state decodes fully', async () => {
    const inspection = await inspectSavepoint(await openSavepoint(openFolderSavepoint(join(DIR, 'savepoint'))), createSnapshotRegistry(), {
      countEntries: true,
    });
    const states = inspection.operators.flatMap((o) => o.states);
    const input = states.filter((s) => s.name === manifest.state);
    expect(input).toHaveLength(1);
    const snapshots = flatten(input[0]!.valueSerializer!);
    const mapData = snapshots.filter((s) => s.className === manifest.mapDataSnapshotClass);
    expect(mapData).toHaveLength(1);
    expect(mapData[0]).toMatchObject({ status: 'known', typeLabel: 'MAP<VARCHAR(2147483647), INT>' });
    expect(mapData[0]!.details).toEqual({
      keySerializer: 'org.apache.flink.table.runtime.typeutils.StringDataSerializer',
      valueSerializer: 'org.apache.flink.api.common.typeutils.base.IntSerializer',
    });
    expect(input[0]!.valueSerializer!.typeLabel).toBe(
      'Map<Long, List<Row<f0 VARCHAR(2147483647), f1 MAP<VARCHAR(2147483647), INT>, f2 INT, f3 TIMESTAMP_LTZ(3)>>>',
    );
    expect(states.every((s) => s.decoded === 'fully')).toBe(true);
    const text = await cli(['inspect', join(DIR, 'savepoint')]);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(new RegExp(`\\n(\\d+) of \\1 states decoded fully\\n`));
  });

  it('dump gives exactly the manifest: per key and row time the waiting input rows, each with its MAP column', async () => {
    const operator = (await inspectSavepoint(await openSavepoint(openFolderSavepoint(join(DIR, 'savepoint'))), createSnapshotRegistry(), {})).operators.find(
      (o) => o.states.some((s) => s.name === manifest.state),
    )!.id;
    const r = await cli(['dump', join(DIR, 'savepoint'), '--operator', operator, '--state', manifest.state, '--format', 'json']);
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
    const entries = (JSON.parse(r.out) as { entries: { keyGroup: number; key: Value; userKey: Value; value: Value }[] }).entries;
    const got = entries
      .map((e) => ({ keyGroup: e.keyGroup, key: plain(e.key), userKey: plain(e.userKey), value: plain(e.value) }))
      .sort((a, b) => String(a.key).localeCompare(String(b.key)) || Number(a.userKey) - Number(b.userKey));
    expect(got).toEqual(
      manifest.entries.map((e) => ({
        keyGroup: e.keyGroup,
        key: [e.key],
        userKey: String(e.rowtime),
        value: e.rows.map((row) => [row.user_name, row.tags, row.qty, new Date(row.rtEpochMillis).toISOString()]),
      })),
    );
    expect(manifest.rowFields).toEqual(['user_name', 'tags', 'qty', 'rt']);
  });
});
