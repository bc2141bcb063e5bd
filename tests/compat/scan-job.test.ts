/**
 * `scan-job` (issue #30) over the committed runs of fixtures/scan-job/<line>/<backend>/<case>/ (written by
 * fixtures/scan-job/run.mjs: the generated project built and run for real, on a local MiniCluster, on a fixture
 * savepoint): the generator's output for that savepoint is the committed project byte for byte (the one that ran);
 * the job's value-scan files are, byte for byte, what `check --values-only --key-groups A-B` writes for the same
 * ranges; and `check --value-scans <the job's output>` gives the single-machine `check` report byte for byte (the
 * differential check). fixtures/scan-job/<case>/cluster/ (fixtures/scan-job/run-cluster.mjs): the same job on a
 * standalone session cluster of separate JVMs wrote the same files byte for byte, on 2 TaskManagers. A job output of
 * another tool version is refused. fixtures/scan-job/<case>/parquet/: the values the job wrote as Parquet (ParquetRows,
 * a folder of part files per state) hold the rows of the CLI's `export --format parquet` of the same state, read and
 * compared by DuckDB, neither the job's parquet-java nor the CLI's writer. No Java here: the runs' output is committed
 * with its manifests.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFileRegistry, fromBinary, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { FeatureSet_FieldPresence, FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { runCli } from '../../src/cli/run-cli';
import { requireCommitted, requireCommittedCases } from '../helpers/committed-data';

const ROOT = 'fixtures/scan-job';
/** every committed run: <line>/<backend>/<case> with a manifest.json */
const CASES = requireCommittedCases(
  'scan-job run (fixtures/scan-job/<line>/<backend>/<case>/manifest.json)',
  existsSync(ROOT)
    ? readdirSync(ROOT)
        .filter((line) => line.startsWith('flink-'))
        .flatMap((line) =>
          readdirSync(path.join(ROOT, line)).flatMap((backend) => readdirSync(path.join(ROOT, line, backend)).map((c) => `${line}/${backend}/${c}`)),
        )
        .filter((c) => existsSync(path.join(ROOT, c, 'manifest.json')))
        .sort()
    : [],
);

const work = mkdtempSync(path.join(tmpdir(), 'scan-job-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

function listFiles(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name), base) : [path.relative(base, path.join(dir, e.name))]))
    .sort();
}

interface Manifest {
  source: string;
  /** the savepoint or retained checkpoint the job ran on */
  savepoint: string;
  schema: string;
  command: string;
  /** the states the job scans (0: Kryo-held or no Protobuf state; check scans none either) */
  statesScanned: number;
  execution: string;
  taskManagers: { id: string; slots: number }[];
  job: { state: string; vertices: { name: string; parallelism: number; subtasks: { subtask: number; status: string; taskManagerId: string | null }[] }[] };
  files: Record<string, string>;
  parquetFiles?: Record<string, string>;
}

/** A state the job scanned, as its project's scan-plan.json lists it. */
interface PlanState {
  operatorId: string;
  uid: string | null;
  state: string;
  kind: string;
  keyed: boolean;
  root: string;
  plan: unknown;
  notRead?: string;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** a proto3 scalar or enum field without presence at its default, as DuckDB's to_json shows it */
function isImplicitDefault(f: DescField, v: Json): boolean {
  if (f.presence !== FeatureSet_FieldPresence.IMPLICIT) return false;
  if (f.fieldKind === 'enum') return v === f.enum.values.find((e) => e.number === 0)?.name;
  return v === 0 || v === '' || v === false;
}

/**
 * The one way the job's rows may differ from the CLI's: parquet-protobuf 1.15.2's ProtoWriteSupport (the job's
 * RowWriteSupport follows it) writes a proto3 field without presence at its default (0, "", false, the enum's first
 * name) where the CLI's export writes null (getAllFields: not set), at any depth and in map entries. Both sides are
 * mapped to null there; every other cell is compared as it is.
 */
function withoutImplicitDefaults(m: DescMessage, v: Json): Json {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  const out: { [k: string]: Json } = { ...v };
  for (const f of m.fields) {
    const cell = out[f.name];
    if (cell === undefined || cell === null) continue;
    if (f.fieldKind === 'message') out[f.name] = withoutImplicitDefaults(f.message, cell);
    else if (f.fieldKind === 'list' && f.listKind === 'message' && Array.isArray(cell)) out[f.name] = cell.map((e) => withoutImplicitDefaults(f.message, e));
    else if (f.fieldKind === 'map' && Array.isArray(cell))
      out[f.name] = cell.map((e) => {
        if (e === null || typeof e !== 'object' || Array.isArray(e)) return e;
        const entry = { ...e };
        if (entry['key'] === 0 || entry['key'] === '' || entry['key'] === false) entry['key'] = null;
        if (f.mapKind === 'message') entry['value'] = withoutImplicitDefaults(f.message, entry['value'] ?? null);
        else if (f.mapKind === 'enum' ? entry['value'] === f.enum.values.find((x) => x.number === 0)?.name : [0, '', false].includes(entry['value'] as never))
          entry['value'] = null;
        return entry;
      });
    else if (isImplicitDefault(f, cell)) out[f.name] = null;
  }
  return out;
}

function normalizeRows(root: DescMessage, rows: string[]): string[] {
  return rows
    .map((j) => {
      const row = JSON.parse(j) as { [k: string]: Json };
      return JSON.stringify({ ...row, value: withoutImplicitDefaults(root, row['value'] ?? null) });
    })
    .sort();
}

/** The folder of a state's part files under the job's --parquet folder (ParquetRows.folder). */
function parquetFolder(s: PlanState): string {
  const safe = (n: string) => n.replace(/[^A-Za-z0-9._-]/g, '_');
  const scope = s.keyed ? 'keyed' : s.kind === 'BROADCAST' ? 'broadcast' : 'operator';
  return path.join(safe(s.uid ?? s.operatorId), `${scope}-${safe(s.state)}`);
}

let duck: Promise<DuckDBConnection> | undefined;
const duckdb = () => (duck ??= DuckDBInstance.create(':memory:').then((d) => d.connect()));

/** DuckDB's view of a Parquet table: its columns (name and type) and its rows as JSON, sorted. */
async function readTable(from: string): Promise<{ columns: string[]; rows: string[] }> {
  const c = await duckdb();
  const described = (await c.runAndReadAll(`DESCRIBE SELECT * FROM ${from}`)).getRowObjectsJson() as { column_name: string; column_type: string }[];
  const rows = (await c.runAndReadAll(`SELECT to_json(t)::VARCHAR AS j FROM ${from} t ORDER BY j`)).getRowObjectsJson() as { j: string }[];
  return { columns: described.map((d) => `${d.column_name} ${d.column_type}`), rows: rows.map((r) => r.j) };
}

describe('scan-job over the committed runs', () => {
  for (const c of CASES) {
    const dir = path.join(ROOT, c);
    const read = () => {
      requireCommitted(path.join(dir, 'manifest.json'), path.join(dir, 'project'), path.join(dir, 'value-scans'));
      const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
      return { manifest, savepoint: manifest.savepoint, scans: path.join(dir, 'value-scans') };
    };

    it(`${c}: the generator writes the committed project, the one that ran`, async () => {
      const { manifest } = read();
      const args = manifest.command.replace(/^savepoint-inspector /, '').split(' ');
      const out = path.join(work, c.replace(/\//g, '-'));
      args[args.indexOf('--output') + 1] = out;
      const r = await cli(args);
      // exit 1: nothing to scan (Kryo-held Protobuf, no Protobuf state); the project is written all the same
      expect(r.code, r.stderr).toBe(manifest.statesScanned > 0 ? 0 : 1);
      const committed = path.join(dir, 'project');
      expect(listFiles(out)).toEqual(listFiles(committed));
      for (const f of listFiles(committed)) expect(readFileSync(path.join(out, f)), f).toEqual(readFileSync(path.join(committed, f)));
    });

    it(`${c}: the job wrote the files check --values-only --key-groups writes for its shards, as the manifest records`, async () => {
      const { manifest, savepoint, scans } = read();
      const names = listFiles(scans);
      expect(names).toEqual(Object.keys(manifest.files).sort());
      expect(names.length).toBeGreaterThan(1);
      for (const name of names) {
        const bytes = readFileSync(path.join(scans, name));
        expect(createHash('sha256').update(bytes).digest('hex'), name).toBe(manifest.files[name]);
        const range = /^part-(\d+-\d+)\.json$/.exec(name)?.[1];
        expect(range, name).toBeDefined();
        const mine = path.join(work, `${c.replace(/\//g, '-')}-${name}`);
        const r = await cli(['check', savepoint, '--descriptors', manifest.schema, '--values-only', '--key-groups', range!, '--output', mine]);
        expect(r.code, r.stderr).toBe(0);
        expect(bytes.toString('utf8'), name).toBe(readFileSync(mine, 'utf8'));
      }
    });

    it(`${c}: the job's Parquet folders hold the rows of the CLI's export of each state (read by DuckDB)`, async () => {
      const { manifest, savepoint } = read();
      const parquet = path.join(dir, 'parquet');
      const plan = JSON.parse(readFileSync(path.join(dir, 'project/src/main/resources/scan-plan.json'), 'utf8')) as { states: PlanState[] };
      const scanned = plan.states.filter((s) => s.plan !== null && s.notRead === undefined);
      if (scanned.length === 0) {
        // a savepoint whose job scans no state (a checkpoint without Protobuf state, Protobuf only under Kryo): the job writes
        // no Parquet at all, and the run recorded none (scan-job names those states as not scanned; check --value-scans reports their values as not read)
        expect([existsSync(parquet), manifest.parquetFiles]).toEqual([false, {}]);
        return;
      }
      requireCommitted(parquet);
      const names = listFiles(parquet);
      expect(names).toEqual(Object.keys(manifest.parquetFiles ?? {}).sort());
      for (const name of names)
        expect(
          createHash('sha256')
            .update(readFileSync(path.join(parquet, name)))
            .digest('hex'),
          name,
        ).toBe(manifest.parquetFiles![name]);
      const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, readFileSync(path.join(dir, 'project/src/main/descriptors/saved.binpb'))));
      // every folder is a scanned state's, and every scanned state has one
      expect([...new Set(names.map((n) => path.dirname(n)))].sort()).toEqual(scanned.map(parquetFolder).sort());
      let rows = 0;
      let unknown = 0;
      for (const s of scanned) {
        const folder = path.join(parquet, parquetFolder(s));
        const exported = path.join(work, `${c.replace(/\//g, '-')}-${s.operatorId}-${s.state}.parquet`);
        const r = await cli(['export', savepoint, '--operator', s.operatorId, '--state', s.state, '--format', 'parquet', '--output', exported, '--quiet']);
        expect(r.code, r.stderr).toBe(0);
        const want = await readTable(`read_parquet('${exported}')`);
        const got = await readTable(`read_parquet('${folder}/*.parquet')`);
        expect(got.columns, s.state).toEqual(want.columns);
        const root = registry.getMessage(s.root);
        expect(root, s.root).toBeDefined();
        expect(normalizeRows(root!, got.rows), s.state).toEqual(normalizeRows(root!, want.rows));
        rows += want.rows.length;
        unknown += want.rows.filter((j) => !j.includes('"unknown_fields":[]')).length;
      }
      // values were written, some with unknown fields (not a comparison of empty tables)
      expect(rows).toBeGreaterThan(0);
      expect(unknown).toBeGreaterThan(0);
    });

    for (const format of ['json', 'text']) {
      it(`${c}: check --value-scans <the job's output> --format ${format} is the single-machine check byte for byte`, async () => {
        const { manifest, savepoint, scans } = read();
        const whole = await cli(['check', savepoint, '--descriptors', manifest.schema, '--format', format, '--workers', '1']);
        const merged = await cli(['check', savepoint, '--descriptors', manifest.schema, '--format', format, '--value-scans', scans]);
        expect(merged.stderr).toBe(whole.stderr);
        expect(merged.code).toBe(whole.code);
        expect(merged.stdout).toBe(whole.stdout);
        // the values were read and hit warnings (not a report without values)
        if (format === 'json' && manifest.statesScanned > 0) {
          expect(whole.stdout).toContain('"valuesScanned"');
          expect(whole.stdout).toContain('UNKNOWN_NUMBER_BECOMES_FIELD');
          expect(whole.stdout).toContain('ALIASING_RETENTION');
        }
      });
    }
  }

  it("names the Protobuf states Kryo holds as not scanned, with check's reason, and builds without protoc when no saved schema is left", async () => {
    const out = path.join(work, 'kryo-only');
    const r = await cli([
      'scan-job',
      'fixtures/kryo-savepoints/flink-1.20/hashmap/kryo-registered/savepoint',
      '--descriptors',
      'src/ui/demo-schema/events-changed.binpb',
      '--output',
      out,
    ]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('Nothing scanned: no Protobuf state the job can read.');
    expect(r.stdout).toContain('Not scanned (check --value-scans reports their values as not read):');
    expect(r.stdout).toContain('  2c3360807567b390553b1d6bddbcfc9d  last-event: values held by Kryo');
    expect(r.stdout).toContain('values held by Kryo: their value warnings need the saved schema, which a Kryo snapshot does not keep');
    const readme = readFileSync(path.join(out, 'README.md'), 'utf8');
    expect(readme).not.toContain('nothing: every Protobuf state is scanned');
    expect(readme).toContain('values held by Kryo: their value warnings need the saved schema');
    // protoc refuses to run without an input file: no saved schema, no protoc step
    const pom = readFileSync(path.join(out, 'pom.xml'), 'utf8');
    expect(pom).not.toContain('<id>protoc-java</id>');
    expect(pom).not.toContain('<id>fetch-protoc</id>');
    // the plan (and so every file the job writes) holds check's value-scan states only: none here, as check --values-only writes
    const plan = JSON.parse(readFileSync(path.join(out, 'src/main/resources/scan-plan.json'), 'utf8')) as { states: unknown[] };
    expect(plan.states).toEqual([]);
  });

  it('ran on canonical and RocksDB native savepoints, a retained incremental checkpoint and Kryo-held Protobuf, on both Flink lines', () => {
    expect(CASES).toEqual(
      expect.arrayContaining([
        'flink-1.20/hashmap/canonical',
        'flink-1.20/rocksdb/native',
        'flink-1.20/rocksdb/incremental',
        'flink-1.20/hashmap/kryo-registered',
        'flink-1.20/rocksdb/kryo-registered',
        'flink-2.3/rocksdb/native',
        'flink-2.3/rocksdb/incremental',
        'flink-2.3/hashmap/kryo-registered',
        'flink-2.3/rocksdb/kryo-registered',
      ]),
    );
  });

  for (const c of CASES) {
    it(`${c}: the job ran on a MiniCluster of 2 TaskManagers, and both ran its subtasks (the shard writer's too)`, () => {
      const manifest = JSON.parse(readFileSync(path.join(ROOT, c, 'manifest.json'), 'utf8')) as Manifest;
      expect(manifest.execution).toContain('MiniClusterConfiguration numTaskManagers 2');
      expect(manifest.taskManagers).toHaveLength(2);
      expect(manifest.job.state).toBe('FINISHED');
      for (const v of manifest.job.vertices) for (const s of v.subtasks) expect(s.status, `${v.name} #${s.subtask}`).toBe('FINISHED');
      const ran = new Set(manifest.job.vertices.flatMap((v) => v.subtasks.map((s) => s.taskManagerId)));
      expect([...ran].sort()).toEqual(manifest.taskManagers.map((t) => t.id).sort());
      const writer = manifest.job.vertices.find((v) => v.name.includes('Writer'));
      expect(new Set(writer?.subtasks.map((s) => s.taskManagerId)).size).toBe(2);
    });
  }

  it('refuses a folder that is not empty, and needs --descriptors', async () => {
    const { code, stderr } = await cli(['scan-job', 'fixtures/savepoints/flink-1.20/rocksdb/native/savepoint', '--output', work]);
    expect(code).toBe(2);
    expect(stderr).toContain('--descriptors <new.binpb> is required');
    const full = await cli([
      'scan-job',
      'fixtures/savepoints/flink-1.20/rocksdb/native/savepoint',
      '--descriptors',
      'src/ui/demo-schema/events-changed.binpb',
      '--output',
      ROOT,
    ]);
    expect(full.code).toBe(2);
    expect(full.stderr).toContain(`--output ${ROOT} is not empty: give a new or empty folder`);
  });
});

/** fixtures/scan-job/<case>/cluster/manifest.json: what fixtures/scan-job/run-cluster.mjs recorded of its run. */
interface ClusterManifest {
  processes: { name: string; mainClass: string }[];
  taskManagers: { id: string; slots: number }[];
  job: { state: string; vertices: { name: string; parallelism: number; subtasks: { subtask: number; status: string; taskManagerId: string | null }[] }[] };
  files: Record<string, string>;
}

describe('scan-job on a standalone session cluster of separate JVMs (fixtures/scan-job/run-cluster.mjs)', () => {
  const CLUSTER_CASES = requireCommittedCases(
    'scan-job cluster run (fixtures/scan-job/<case>/cluster/manifest.json)',
    CASES.filter((c) => existsSync(path.join(ROOT, c, 'cluster', 'manifest.json'))),
  );
  it('ran for both Flink lines and both backends', () => {
    expect(CLUSTER_CASES).toEqual(expect.arrayContaining(['flink-1.20/rocksdb/native', 'flink-1.20/hashmap/canonical', 'flink-2.3/rocksdb/native']));
  });
  for (const c of CLUSTER_CASES) {
    it(`${c}: a JobManager and 2 TaskManagers, each its own process, ran the job's subtasks, and its files are the single-JVM run's byte for byte`, () => {
      const dir = path.join(ROOT, c, 'cluster');
      requireCommitted(path.join(dir, 'manifest.json'), path.join(dir, 'value-scans'));
      const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as ClusterManifest;
      expect(manifest.processes.map((p) => p.mainClass)).toEqual([
        'org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint',
        'org.apache.flink.runtime.taskexecutor.TaskManagerRunner',
        'org.apache.flink.runtime.taskexecutor.TaskManagerRunner',
      ]);
      expect(manifest.taskManagers).toHaveLength(2);
      expect(manifest.job.state).toBe('FINISHED');
      const ran = new Set(manifest.job.vertices.flatMap((v) => v.subtasks.map((s) => s.taskManagerId)));
      expect([...ran].sort()).toEqual(manifest.taskManagers.map((t) => t.id).sort());
      for (const v of manifest.job.vertices) for (const s of v.subtasks) expect(s.status, `${v.name} #${s.subtask}`).toBe('FINISHED');
      // the shard files were written on both TaskManagers (writer subtask i writes the shards s with s % 2 = i)
      const writer = manifest.job.vertices.find((v) => v.name.includes('Writer'));
      expect(new Set(writer?.subtasks.map((s) => s.taskManagerId)).size).toBe(2);
      // the cluster's output: as recorded, and the single-JVM run's (value-scans/, checked above against check --values-only) byte for byte
      const single = path.join(ROOT, c, 'value-scans');
      const names = listFiles(path.join(dir, 'value-scans'));
      expect(names).toEqual(Object.keys(manifest.files).sort());
      expect(names).toEqual(listFiles(single));
      for (const name of names) {
        const bytes = readFileSync(path.join(dir, 'value-scans', name));
        expect(createHash('sha256').update(bytes).digest('hex'), name).toBe(manifest.files[name]);
        expect(bytes.equals(readFileSync(path.join(single, name))), name).toBe(true);
      }
    });
  }
});

describe('scan-job output of another tool version', () => {
  it('check --value-scans refuses it, naming both versions (exit 2)', async () => {
    const c = 'flink-1.20/rocksdb/native';
    const scans = path.join(ROOT, c, 'value-scans');
    requireCommitted(scans);
    const edited = path.join(work, 'other-version');
    cpSync(scans, edited, { recursive: true });
    const name = listFiles(edited)[1]!;
    const file = path.join(edited, name);
    const text = readFileSync(file, 'utf8');
    const field = `"toolVersion": "${packageJson.version}"`;
    expect(text).toContain(field);
    writeFileSync(file, text.replace(field, '"toolVersion": "0.0.9"'));
    const r = await cli([
      'check',
      path.join('fixtures/savepoints', c, 'savepoint'),
      '--descriptors',
      'src/ui/demo-schema/events-changed.binpb',
      '--value-scans',
      edited,
    ]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${file} was written by savepoint-inspector 0.0.9, this is ${packageJson.version}`);
  });
});
