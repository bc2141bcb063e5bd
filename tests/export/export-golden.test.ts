/**
 * `export` over the fixture savepoints written by real Flink: JSON Lines rows of a ValueState hold
 * FixtureData's events (last event per key, typed keys, unknown fields 100/101 with their bytes);
 * the Parquet exports are byte for byte the files the Java cross-check (fixtures/parquet-check) read
 * back with parquet-protobuf into equal messages, and their value schema is the one Flink's
 * ParquetProtoWriters wrote; DuckDB answers SQL over an export; a state that is not decodable is
 * refused with its reason (exit 2).
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { create, createFileRegistry, type DescMessage } from '@bufbuild/protobuf';
import {
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FileDescriptorProtoSchema,
  file_google_protobuf_any,
  file_google_protobuf_duration,
  file_google_protobuf_field_mask,
  file_google_protobuf_struct,
  file_google_protobuf_timestamp,
  file_google_protobuf_wrappers,
} from '@bufbuild/protobuf/wkt';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { deriveParquetFields } from '../../src/core/export/derive-parquet-schema';
import { formatParquetSchemaText } from '../../src/core/export/format-parquet-schema-text';
import { createSnapshotRegistry, inspectSavepoint, openSavepoint } from '../../src/core/flink';
import { getProtobufSnapshotContent, registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { openNodeInput } from '../../src/cli/sources';
import { PARQUET_CHECK_EXPORTS } from '../../fixtures/parquet-check/exports.mjs';

const SAVEPOINT = 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint';
const dir = mkdtempSync(path.join(tmpdir(), 'export-golden-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface CrossCheckManifest {
  referenceSchema: string;
  referenceSchemaIsDefaultConverter: boolean;
  specsCompliantSchema: string;
  wellKnownTypesSchema: string;
  wellKnownTypesUnwrappedSchema: string;
  exports: { file: string; sha256: string; valueSchemaEqualsReference: boolean; rowsRead: number; valuesEqualOriginal: number; mismatches: string[] }[];
}
const manifest = JSON.parse(readFileSync('fixtures/parquet-check/manifest.json', 'utf8')) as CrossCheckManifest;

/** The fixture's Event message, from the last-event state's saved schema. */
async function loadEventMessage(): Promise<DescMessage> {
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  const inspection = await inspectSavepoint(await openSavepoint(await openNodeInput(SAVEPOINT)), registry);
  const state = inspection.operators.flatMap((o) => o.states).find((s) => s.name === 'last-event')!;
  return getProtobufSnapshotContent(state.valueSerializer!)!.schema.root;
}

/** parquetcheck.WellKnown, built field for field as ParquetCheck.buildWellKnownTypesMessage builds it. */
const WELL_KNOWN = ((): DescMessage => {
  const types = [
    'Timestamp',
    'Duration',
    'Int64Value',
    'Int32Value',
    'UInt64Value',
    'StringValue',
    'BoolValue',
    'DoubleValue',
    'FloatValue',
    'BytesValue',
    'Any',
    'Struct',
    'FieldMask',
    'Timestamp',
  ];
  const names = ['at', 'took', 'count', 'small', 'unsigned', 'label', 'flag', 'ratio', 'share', 'payload', 'extra', 'attrs', 'mask', 'history'];
  const deps = [
    file_google_protobuf_timestamp,
    file_google_protobuf_duration,
    file_google_protobuf_wrappers,
    file_google_protobuf_any,
    file_google_protobuf_struct,
    file_google_protobuf_field_mask,
  ];
  const file = create(FileDescriptorProtoSchema, {
    name: 'parquetcheck/well_known.proto',
    package: 'parquetcheck',
    syntax: 'proto3',
    dependency: deps.map((d) => d.proto.name),
    messageType: [
      {
        name: 'WellKnown',
        field: names.map((name, i) => ({
          name,
          number: i + 1,
          typeName: `.google.protobuf.${types[i]}`,
          type: FieldDescriptorProto_Type.MESSAGE,
          label: name === 'history' ? FieldDescriptorProto_Label.REPEATED : FieldDescriptorProto_Label.OPTIONAL,
        })),
      },
    ],
  });
  const registry = createFileRegistry(file, (name) => deps.find((d) => d.proto.name === name));
  return registry.getMessage('parquetcheck.WellKnown')!;
})();

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe('export: JSON Lines of a fixture ValueState', () => {
  it('holds the last event of each key with its typed key, ProtoJSON value and unknown fields', async () => {
    const out = path.join(dir, 'last-event.jsonl');
    const r = await run('export', SAVEPOINT, '--operator', 'int-keyed', '--state', 'last-event', '--format', 'jsonl', '--output', out);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${out}: 5 rows of state "last-event" (5 entries)\n`);
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const byKey = new Map(rows.map((row) => [row['key'], row]));
    // ids 0..23 keyed by id % 5: the last event of key k is the largest id with id % 5 == k
    expect([...byKey.keys()].sort()).toEqual([0, 1, 2, 3, 4]);
    for (const [key, row] of byKey) {
      const id = [19, 20, 21, 22, 23].find((i) => i % 5 === key)!;
      const value = row['value'] as Record<string, unknown>;
      expect(value['id']).toBe(String(id));
      expect(value['name']).toBe(`event-${id}`);
      // Kind.forNumber(1 + id % 3)
      expect(value['kind']).toBe(['CREATED', 'UPDATED', 'DELETED'][id % 3]);
      expect(row['namespace']).toBe('VoidNamespace');
      const unknown = row['unknownFields'] as { number: number; wireType: number; bytes: string }[];
      // field 100 varint 99 on every event, field 101 "extra-<id>" on even ids
      expect(unknown[0]).toEqual({ path: '', number: 100, wireType: 0, bytes: 'oAZj' });
      expect(unknown.length).toBe(id % 2 === 0 ? 2 : 1);
    }
  });

  it('writes CSV with a header and one line per entry', async () => {
    const out = path.join(dir, 'last-event.csv');
    expect((await run('export', SAVEPOINT, '--operator', 'int-keyed', '--state', 'last-event', '--format', 'csv', '--output', out)).code).toBe(0);
    const lines = readFileSync(out, 'utf8').split('\r\n');
    expect(lines[0]).toBe('key_group,subtask,key,namespace,value,value_size,unknown_fields');
    expect(lines.filter((l) => l !== '').length).toBe(6);
  });

  it('gives list state one row per element with its index', async () => {
    const out = path.join(dir, 'history.jsonl');
    expect((await run('export', SAVEPOINT, '--operator', 'int-keyed', '--state', 'event-history', '--format', 'jsonl', '--output', out)).code).toBe(0);
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { key: number; elementIndex: number; value: { id?: string } });
    expect(rows.length).toBe(24);
    // ProtoJSON leaves out id 0 (proto3 default)
    for (const row of rows) expect(Number(row.value.id ?? 0) % 5).toBe(row.key);
    expect(rows.filter((row) => row.key === 0).map((row) => row.elementIndex)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('export: Parquet against the Java cross-check (fixtures/parquet-check/manifest.json)', () => {
  it("derives the schema Flink's ParquetProtoWriters wrote for Event", async () => {
    const files = await openNodeInput(SAVEPOINT);
    const registry = createSnapshotRegistry();
    registerProtobufSnapshotReaders(registry);
    const inspection = await inspectSavepoint(await openSavepoint(files), registry);
    const state = inspection.operators.flatMap((o) => o.states).find((s) => s.name === 'last-event')!;
    const root = getProtobufSnapshotContent(state.valueSerializer!)!.schema.root;
    expect(formatParquetSchemaText(root.typeName, deriveParquetFields(root, { layout: 'legacy' }))).toBe(manifest.referenceSchema);
  });

  it.each(PARQUET_CHECK_EXPORTS)('exports $state exactly as the file parquet-protobuf read back into equal messages', async (e) => {
    const checked = manifest.exports.find((m) => m.file === e.file)!;
    expect(checked.valueSchemaEqualsReference).toBe(true);
    expect(checked.rowsRead).toBeGreaterThan(0);
    expect(checked.valuesEqualOriginal).toBe(checked.rowsRead);
    const out = path.join(dir, e.file);
    const r = await run('export', e.savepoint, '--operator', e.operator, '--state', e.state, '--format', 'parquet', '--output', out, '--quiet');
    expect(r.code).toBe(0);
    expect(createHash('sha256').update(readFileSync(out)).digest('hex')).toBe(checked.sha256);
  });
});

describe("export: the layout points in the schema Flink's ParquetProtoWriters wrote (the manifest of fixtures/parquet-check)", () => {
  // parquet-protobuf's defaults, which ParquetProtoWriters keeps (it sets no configuration):
  // writeSpecsCompliant=false (no LIST/MAP wrappers), maxRecursion=5, unwrapProtoWrappers=false
  const text = manifest.referenceSchema;
  const lines = text.split('\n').map((l) => l.trim());

  it('message → group with the field numbers as ids; enum → binary (ENUM); string → binary (STRING); bytes → plain binary', () => {
    expect(lines[0]).toBe('message fixtures.events.Event {');
    expect(lines).toContain('optional group location = 10 {');
    expect(lines).toContain('optional binary kind (ENUM) = 3;');
    expect(lines).toContain('optional binary name (STRING) = 2;');
    expect(lines).toContain('optional binary blob = 12;');
    expect(lines).toContain('optional int64 id = 1;');
    expect(lines).toContain('optional double lat = 1;');
  });

  it('legacy layout: repeated fields are bare repeated fields and maps are repeated key/value groups (no LIST, no MAP)', () => {
    expect(lines).toContain('repeated binary tags (STRING) = 5;');
    expect(lines).toContain('repeated int64 deltas = 14;');
    expect(lines).toContain('repeated binary chunks = 13;');
    // map<string, int32> counters = 6: the map entry message, key then value
    expect(text).toContain('repeated group counters = 6 {\n    optional binary key (STRING) = 1;\n    optional int32 value = 2;\n  }');
    expect(text).toContain('repeated group details = 7 {\n    optional binary key (STRING) = 1;\n    optional group value = 2 {');
    expect(text).not.toMatch(/\((LIST|MAP|MAP_KEY_VALUE)\)/);
    expect(text).not.toMatch(/\brepeated group (list|key_value)\b/);
  });

  it('recursion: Event.parent nests 5 times as a group, then is cut to its serialized bytes (maxRecursion 5)', () => {
    expect(lines.filter((l) => l === 'optional group parent = 15 {')).toHaveLength(5);
    expect(lines.filter((l) => l === 'optional binary parent = 15;')).toHaveLength(1);
  });

  it("the Java check ran the converter ParquetProtoWriters uses: its defaults give Flink's file's schema", () => {
    expect(manifest.referenceSchemaIsDefaultConverter).toBe(true);
  });

  it("spec layout: our derivation is parquet-protobuf's with writeSpecsCompliant=true (LIST of element, MAP of key_value, no ids inside)", async () => {
    const message = await loadEventMessage();
    const ours = formatParquetSchemaText(message.typeName, deriveParquetFields(message, { layout: 'spec' }));
    expect(ours).toBe(manifest.specsCompliantSchema);
    const spec = manifest.specsCompliantSchema.split('\n').map((l) => l.trim());
    expect(spec).toContain('optional group tags (LIST) = 5 {');
    expect(spec).toContain('optional group counters (MAP) = 6 {');
    expect(spec).toContain('repeated group key_value {');
    expect(spec).toContain('required binary key (STRING);');
    expect(spec).toContain('optional group element {');
    expect(spec).toContain('required binary element (STRING);');
  });

  it('well-known types: plain message groups under the default (unwrapProtoWrappers=false), as we derive them; unwrapping is a setting ParquetProtoWriters does not set', () => {
    const ours = formatParquetSchemaText(WELL_KNOWN.typeName, deriveParquetFields(WELL_KNOWN, { layout: 'legacy' }));
    expect(ours).toBe(manifest.wellKnownTypesSchema);
    const text = manifest.wellKnownTypesSchema;
    expect(text).toContain('optional group at = 1 {\n    optional int64 seconds = 1;\n    optional int32 nanos = 2;\n  }');
    expect(text).toContain('optional group label = 6 {\n    optional binary value (STRING) = 1;\n  }');
    expect(text).toContain('optional group extra = 11 {\n    optional binary type_url (STRING) = 1;\n    optional binary value = 2;\n  }');
    expect(text).toContain('repeated group history = 14 {');
    // what the other setting would give (not written by Flink, not by this tool): Timestamp as TIMESTAMP(NANOS), wrappers unwrapped
    expect(manifest.wellKnownTypesUnwrappedSchema).toContain('optional int64 at (TIMESTAMP(NANOS,true)) = 1;');
    expect(manifest.wellKnownTypesUnwrappedSchema).toContain('optional binary label (STRING) = 6;');
  });
});

describe('export: SQL over a Parquet export (DuckDB)', () => {
  it('answers queries over nested values, unknown fields and key groups', async () => {
    const out = path.join(dir, 'by-name.parquet');
    expect(
      (await run('export', SAVEPOINT, '--operator', 'int-keyed', '--state', 'events-by-name', '--format', 'parquet', '--output', out, '--quiet')).code,
    ).toBe(0);
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    const q = async (sql: string) => (await c.runAndReadAll(sql.replace('$F', `read_parquet('${out.replace(/'/g, "''")}')`))).getRowObjectsJson();
    expect(await q('SELECT count(*) AS n FROM $F')).toEqual([{ n: '24' }]);
    // every event carries unknown field 100; the even ids also 101
    expect(await q('SELECT count(*) AS n FROM $F WHERE list_contains(list_transform(unknown_fields, u -> u.number), 101)')).toEqual([{ n: '12' }]);
    // field detail is set on ids with id % 4 != 3
    expect(await q('SELECT count(*) AS n FROM $F WHERE value.detail IS NOT NULL')).toEqual([{ n: '18' }]);
    expect(await q('SELECT user_key, value.kind AS kind, value.counters AS counters FROM $F WHERE value.id = 4')).toEqual([
      {
        user_key: 'event-4',
        kind: 'UPDATED',
        counters: [
          { key: 'seen', value: 4 },
          { key: 'double', value: 8 },
        ],
      },
    ]);
    const perKeyGroup = await q('SELECT key_group, count(*) AS n FROM $F GROUP BY key_group ORDER BY key_group');
    expect(perKeyGroup.reduce((n, row) => n + Number(row['n']), 0)).toBe(24);
    c.closeSync();
  });
});

describe('export: Parquet spec layout (LIST/MAP wrappers)', () => {
  it('reads in DuckDB as the legacy layout does, with the wrappers in the footer', async () => {
    const legacy = path.join(dir, 'legacy.parquet');
    const spec = path.join(dir, 'spec.parquet');
    for (const [out, layout] of [
      [legacy, 'legacy'],
      [spec, 'spec'],
    ] as const) {
      expect(
        (
          await run(
            'export',
            SAVEPOINT,
            '--operator',
            'int-keyed',
            '--state',
            'events-by-name',
            '--format',
            'parquet',
            '--layout',
            layout,
            '--output',
            out,
            '--quiet',
          )
        ).code,
      ).toBe(0);
    }
    const c = await (await DuckDBInstance.create(':memory:')).connect();
    const q = async (file: string) =>
      (
        await c.runAndReadAll(
          `SELECT user_key, value.tags AS tags, value.counters AS counters, value.details AS details, value.deltas AS deltas, unknown_fields FROM read_parquet('${file}') ORDER BY user_key`,
        )
      ).getRowObjectsJson();
    const specRows = await q(spec);
    // an empty LIST/MAP is written as null in the spec layout, as an empty repeated field in the legacy one
    const emptyAsNull = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.length === 0
          ? null
          : v.map(emptyAsNull)
        : v !== null && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, emptyAsNull(x)]))
          : v;
    expect(emptyAsNull(specRows)).toEqual(emptyAsNull(await q(legacy)));
    expect(specRows.length).toBe(24);
    const logical = (
      await c.runAndReadAll(`SELECT name, converted_type FROM parquet_schema('${spec}') WHERE name IN ('tags', 'counters', 'unknown_fields') ORDER BY name`)
    ).getRowObjectsJson();
    expect(logical).toEqual(
      expect.arrayContaining([
        { name: 'counters', converted_type: 'MAP' },
        { name: 'tags', converted_type: 'LIST' },
        { name: 'unknown_fields', converted_type: 'LIST' },
      ]),
    );
    c.closeSync();
  });
});

describe('export: broadcast state', () => {
  it('gives the broadcast Rule values as nested columns, enums by name, one row per subtask copy', async () => {
    const out = path.join(dir, 'rules.parquet');
    expect((await run('export', SAVEPOINT, '--operator', 'long-broadcast', '--state', 'rules', '--format', 'parquet', '--output', out, '--quiet')).code).toBe(
      0,
    );
    const c = await (await DuckDBInstance.create(':memory:')).connect();
    const rows = (
      await c.runAndReadAll(
        `SELECT user_key, value.applies_to AS applies_to, value.patterns AS patterns, count(*) AS copies FROM read_parquet('${out}') GROUP BY ALL ORDER BY user_key`,
      )
    ).getRowObjectsJson();
    // rule r: appliesTo Kind.forNumber(1 + r % 3), patterns [p<r>, *]; every subtask holds a copy
    expect(rows).toEqual([
      { user_key: 'rule-0', applies_to: 'CREATED', patterns: ['p0', '*'], copies: '2' },
      { user_key: 'rule-1', applies_to: 'UPDATED', patterns: ['p1', '*'], copies: '2' },
      { user_key: 'rule-2', applies_to: 'DELETED', patterns: ['p2', '*'], copies: '2' },
    ]);
    c.closeSync();
  });
});

describe('export: refusals', () => {
  it('a state whose files are missing: the rows that could be read, a warning naming each missing file, exit 1', async () => {
    // the RocksDB native fixture without the SST files its handles name: its keyed values cannot be read
    const copy = path.join(dir, 'native-without-sst');
    cpSync('fixtures/savepoints/flink-2.3/rocksdb/native/savepoint', copy, { recursive: true });
    const opened = await openSavepoint(await openNodeInput(copy));
    for (const op of opened.metadata.operators) {
      for (const st of op.subtasks) {
        const h = st.managedKeyedState;
        if (h?.kind !== 'incremental') continue;
        for (const f of [...h.sharedFiles, ...h.privateFiles])
          if (f.localPath.endsWith('.sst') && f.handle?.kind === 'relative-file') rmSync(path.join(copy, f.handle.relativePath));
      }
    }
    const target = path.join(dir, 'native.jsonl');
    const r = await run('export', copy, '--operator', 'int-keyed', '--state', 'last-event', '--format', 'jsonl', '--output', target);
    expect(r.code).toBe(1);
    // the file that holds part of the state is not left looking complete: removed (--keep-partial keeps it as .partial)
    expect(r.stdout).toBe(
      `${target}: 0 rows of state "last-event" (0 entries) — the export failed: file removed (--keep-partial keeps it as <file>.partial)\n`,
    );
    expect(existsSync(target)).toBe(false);
    expect(r.stderr).toMatch(
      /^savepoint-inspector export: warning: last-event: not the whole state: a stream failed: expected state file "[0-9a-f-]{36}" next to _metadata in \S+, found no such file: the savepoint is incomplete \(copy the whole folder\) — at \S+\/_metadata, offset \d+ \(0x[0-9a-f]+\) \[operator 6d821971… \/ subtask 0 \/ RocksDB table \d+\.sst\]\n/,
    );
  });

  it("names the operator's states for an unknown state and needs --state or --all", async () => {
    const r = await run('export', SAVEPOINT, '--operator', 'int-keyed', '--state', 'nope', '--format', 'jsonl', '--output', path.join(dir, 'x.jsonl'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'found "nope" (its states: "_timer_state/event_user-timers", "_timer_state/processing_user-timers", "even-events", "event-history", "events-by-name", "last-event", "processed-events")',
    );
    const u = await run('export', SAVEPOINT, '--operator', 'int-keyed', '--format', 'jsonl', '--output', path.join(dir, 'x.jsonl'));
    expect(u.code).toBe(2);
    expect(u.stderr).toContain('expected either --state <name> or --all');
  });

  it('writes one file per state with --all', async () => {
    const out = path.join(dir, 'all');
    const r = await run('export', SAVEPOINT, '--operator', 'int-keyed', '--all', '--format', 'parquet', '--output', out);
    expect(r.code).toBe(0);
    // the five states and the two timer queues, a summary line and a file each
    expect(r.stdout.trim().split('\n').length).toBe(7);
    expect(readdirSync(out)).toHaveLength(7);
    // --quiet: the files, no summary lines
    const quiet = await run('export', SAVEPOINT, '--operator', 'int-keyed', '--all', '--format', 'parquet', '--output', path.join(dir, 'all-quiet'), '--quiet');
    expect([quiet.code, quiet.stdout]).toEqual([0, '']);
    expect(readdirSync(path.join(dir, 'all-quiet'))).toEqual(readdirSync(out));
  });

  it('writes with --all (one read for every state) the bytes one export per state writes', async () => {
    const out = path.join(dir, 'all-jsonl');
    expect((await run('export', SAVEPOINT, '--operator', 'int-keyed', '--all', '--format', 'jsonl', '--output', out, '--quiet')).code).toBe(0);
    for (const [state, scope] of [
      ['last-event', 'keyed'],
      ['events-by-name', 'keyed'],
      ['event-history', 'keyed'],
      ['processed-events', 'operator'],
    ] as const) {
      const one = path.join(dir, `one-${state}.jsonl`);
      expect((await run('export', SAVEPOINT, '--operator', 'int-keyed', '--state', state, '--format', 'jsonl', '--output', one, '--quiet')).code).toBe(0);
      const together = readFileSync(path.join(out, `${scope}-${state}.jsonl`));
      expect(together.length).toBeGreaterThan(0);
      expect(together.equals(readFileSync(one)), state).toBe(true);
    }
  });
});

describe("export: Arrow IPC (what the app's Query view inserts into DuckDB-WASM)", () => {
  it('holds the Parquet columns, typed alike, one IPC stream per row group', async () => {
    const { tableFromIPC } = await import('apache-arrow');
    const out = path.join(dir, 'by-name.arrows');
    expect((await run('export', SAVEPOINT, '--operator', 'int-keyed', '--state', 'events-by-name', '--format', 'arrow', '--output', out, '--quiet')).code).toBe(
      0,
    );
    const table = tableFromIPC(readFileSync(out));
    expect(table.numRows).toBe(24);
    expect(table.schema.fields.map((f) => `${f.name}: ${String(f.type)}`).slice(0, 5)).toEqual([
      'key_group: Int32',
      'subtask: Int32',
      'key: Int32',
      'namespace: Utf8',
      'user_key: Utf8',
    ]);
    const rows = table.toArray().map((r) => r.toJSON() as { user_key: string; value: { toJSON(): { id: bigint; kind: string } } });
    const four = rows.find((r) => r.user_key === 'event-4')!.value.toJSON();
    expect(four.id).toBe(4n);
    expect(four.kind).toBe('UPDATED');
  });
});
