/**
 * Golden tests over the Avro-state savepoints real Flink 1.20 with flink-avro wrote (fixtures/avro-writer,
 * committed under fixtures/avro-savepoints; issue #36): every Avro state (GenericRecord values of flink-avro's
 * AvroSerializer, snapshot AvroSerializerSnapshot v3 with the writer schema) must be decoded fully, and `dump`
 * must give exactly the manifest's records (every Avro type of the schema: long, string, double, boolean, enum,
 * array, map, nullable string, nullable nested record, a named-type reference, bytes, fixed, timestamp-millis, int).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { computeOperatorId } from '../../src/core/flink';

const ROOT = join(process.cwd(), 'fixtures', 'avro-savepoints');

interface ExpectedState {
  name: string;
  kind: string;
  entries?: { key: string; keyGroup: number; subtask: number; userKey?: string; value?: unknown; values?: unknown[] }[];
  partitions?: { subtask: number; values: unknown[] }[];
}
interface Manifest {
  versions: { flink: string };
  serializer: { snapshotClass: string; runtimeType: string; schema: { name: string; namespace: string } };
  operators: { uid: string; parallelism: number; maxParallelism: number; states: ExpectedState[] }[];
}
interface DumpedValue {
  kind: string;
  value?: string | number | boolean;
  name?: string;
  base64?: string;
  items?: DumpedValue[];
  entries?: { key: DumpedValue; value: DumpedValue }[];
  fields?: { name: string; value: DumpedValue }[];
}
interface DumpedEntry {
  subtask: number;
  keyGroup: number;
  key?: DumpedValue;
  userKey?: DumpedValue;
  value: DumpedValue;
}

function listCases(): { name: string; dir: string; manifest: Manifest }[] {
  if (!existsSync(ROOT)) return [];
  const out = [];
  for (const line of readdirSync(ROOT).sort())
    for (const name of readdirSync(join(ROOT, line)).sort()) {
      const dir = join(ROOT, line, name);
      out.push({ name: `${line}/${name}`, dir, manifest: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest });
    }
  return out;
}

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => void (out += t), stderr: (t) => void (err += t) });
  return { code, out, err };
}

/** A dumped value in the manifest's JSON (the writer's rules): records as objects, longs as strings, bytes base64. */
function plain(v: DumpedValue): unknown {
  switch (v.kind) {
    case 'null':
      return null;
    case 'int':
    case 'float':
    case 'boolean':
    case 'string':
    case 'long':
      return v.value;
    case 'enum':
      return v.name;
    case 'bytes':
      return v.base64;
    case 'list':
      return v.items!.map(plain);
    case 'map':
      return Object.fromEntries(v.entries!.map((e) => [plain(e.key), plain(e.value)]));
    case 'pojo':
      return Object.fromEntries(v.fields!.map((f) => [f.name, plain(f.value)]));
    default:
      throw new Error(`unexpected value kind ${v.kind}`);
  }
}

const cases = listCases();

describe('Avro-state fixture savepoints (flink-avro AvroSerializer)', () => {
  it('the fixtures are present', () => {
    expect(cases.map((c) => c.name)).toEqual(['flink-1.20/hashmap', 'flink-1.20/rocksdb']);
  });

  for (const c of cases) {
    describe(c.name, () => {
      const savepoint = join(c.dir, 'savepoint');
      const op = c.manifest.operators[0]!;
      const record = `${c.manifest.serializer.schema.namespace}.${c.manifest.serializer.schema.name}`;

      it('inspect decodes every Avro state fully and labels it with the writer schema record', async () => {
        const r = await cli(['inspect', savepoint, '--format', 'json']);
        expect(r.code).toBe(0);
        const doc = JSON.parse(r.out) as {
          operators: { id: string; states: { name: string; decoded: string; entries: number; valueSerializer: string; valueType: string }[] }[];
        };
        const inspected = doc.operators.find((o) => o.id === computeOperatorId(op.uid))!;
        const got = op.states.map((s) => {
          const x = inspected.states.find((y) => y.name === s.name)!;
          return [s.name, x.decoded, x.entries, x.valueType];
        });
        const count = (s: ExpectedState) => (s.entries ? s.entries.length : s.partitions!.reduce((n, p) => n + p.values.length, 0));
        expect(got).toEqual([
          ['last-reading', 'fully', count(op.states[0]!), `Avro ${record}`],
          ['readings', 'fully', count(op.states[1]!), `List<Avro ${record}>`],
          ['by-id', 'fully', count(op.states[2]!), `Map<Long, Avro ${record}>`],
          ['seen-readings', 'fully', count(op.states[3]!), `Avro ${record}`],
        ]);
      });

      it('inspect shows the writer schema of each Avro state (JSON avro[], text avro line) and says evolution is not checked', async () => {
        const json = JSON.parse((await cli(['inspect', savepoint, '--format', 'json'])).out) as {
          operators: {
            id: string;
            states: { name: string; avro: { path: string; record: string; runtimeType: string; schema: string; schemaEvolution: string }[] | null }[];
          }[];
        };
        const states = json.operators.find((o) => o.id === computeOperatorId(op.uid))!.states;
        const schema = JSON.stringify(c.manifest.serializer.schema);
        const avroOf = (name: string) => states.find((x) => x.name === name)!.avro;
        expect(avroOf('last-reading')).toEqual([
          { path: 'VALUE_SERIALIZER', record, runtimeType: c.manifest.serializer.runtimeType, schema, schemaEvolution: 'not checked' },
        ]);
        expect(avroOf('by-id')!.map((a) => a.path)).toEqual(['VALUE_SERIALIZER/1']);
        expect(avroOf('readings')!.map((a) => a.path)).toEqual(['VALUE_SERIALIZER/0']);
        expect(avroOf('_timer_state/event_user-timers')).toBeNull();
        const text = (await cli(['inspect', savepoint])).out;
        expect(text).toContain(
          `      avro      ${record}: generic records (${c.manifest.serializer.runtimeType}), writer schema as saved; Avro schema evolution not checked\n                schema ${schema}\n`,
        );
      });

      it('export --format jsonl writes each record as JSON, like other typed values', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'avro-export-'));
        const file = join(dir, 'last-reading.jsonl');
        let text: string;
        try {
          const r = await cli(['export', savepoint, '--operator', op.uid, '--state', 'last-reading', '--format', 'jsonl', '--output', file, '--quiet']);
          expect(r.err).toBe('');
          expect(r.code).toBe(0);
          text = readFileSync(file, 'utf8');
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
        // maps export as [{key, value}] lists, as for every typed map value
        const lines = text
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { key: string; value: Record<string, unknown> })
          .map((l) => ({
            key: l.key,
            value: { ...l.value, attrs: Object.fromEntries((l.value.attrs as { key: string; value: number }[]).map((e) => [e.key, e.value])) },
          }));
        const expected = op.states[0]!.entries!.map((e) => ({ key: e.key, value: e.value }));
        expect(lines.sort((a, b) => a.key.localeCompare(b.key))).toEqual(expected.sort((a, b) => a.key.localeCompare(b.key)));
      });

      it('check says each Avro state is Avro and not checked (schema evolution out of scope), and never passes', async () => {
        const r = await cli(['check', savepoint, '--no-values', '--descriptors', 'src/ui/demo-schema/events-changed.binpb', '--format', 'json']);
        expect(r.code).toBe(1);
        const doc = JSON.parse(r.out) as { states: { state: string; verdict: string; reason: string | null }[] };
        const avro = doc.states.filter((x) => op.states.some((s) => s.name === x.state)).map((x) => [x.state, x.verdict, x.reason]);
        const why = 'not checked: Avro schema evolution (a new Avro schema) is out of scope of the compatibility rules';
        expect(avro.sort()).toEqual(
          [
            ['by-id', 'unknown', `an Avro state (Map<Long, Avro ${record}>): ${why}`],
            ['last-reading', 'unknown', `an Avro state (Avro ${record}): ${why}`],
            ['readings', 'unknown', `an Avro state (List<Avro ${record}>): ${why}`],
            ['seen-readings', 'unknown', `an Avro state (Avro ${record}): ${why}`],
          ].sort(),
        );
      });

      for (const s of op.states) {
        it(`dump ${s.name} gives exactly the manifest's records`, async () => {
          const r = await cli(['dump', savepoint, '--operator', op.uid, '--state', s.name, '--format', 'json']);
          expect(r.err).toBe('');
          expect(r.code).toBe(0);
          const entries = (JSON.parse(r.out) as { entries: DumpedEntry[] }).entries;
          if (s.partitions) {
            expect(
              s.partitions.map((p) => ({ subtask: p.subtask, values: entries.filter((e) => e.subtask === p.subtask).map((e) => plain(e.value)) })),
            ).toEqual(s.partitions);
            return;
          }
          const got = entries.map((e) => {
            const out: Record<string, unknown> = { key: plain(e.key!), keyGroup: e.keyGroup, subtask: e.subtask };
            if (e.userKey) out.userKey = plain(e.userKey);
            if (s.kind === 'list') out.values = plain(e.value);
            else out.value = plain(e.value);
            return out;
          });
          const order = (x: Record<string, unknown>) => `${String(x.key)}/${String(x.userKey ?? '').padStart(4, '0')}`;
          expect([...got].sort((a, b) => order(a).localeCompare(order(b)))).toEqual([...s.entries!].sort((a, b) => order(a).localeCompare(order(b))));
        });
      }
    });
  }
});
