/**
 * Golden tests over the savepoints real Flink 1.8.3 and 1.10.0 wrote (`_metadata` format version 2, issue #36;
 * fixtures/legacy-writer, committed under fixtures/legacy-savepoints): every state the manifest names must be
 * listed by `inspect` as decoded fully with the expected entry count, and `dump` must give exactly the
 * manifest's entries (keys, key groups, subtasks, map user keys, list order, Tuple and POJO fields) and the
 * operator list states' elements per subtask in order.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { computeOperatorId } from '../../src/core/flink';

const ROOT = join(process.cwd(), 'fixtures', 'legacy-savepoints');

type Plain = string | number | Plain[] | { [k: string]: Plain };
interface ExpectedState {
  name: string;
  kind: string;
  entries?: { key: number; keyGroup: number; subtask: number; userKey?: string; value?: Plain; values?: Plain[] }[];
  partitions?: { subtask: number; values: number[] }[];
}
interface Manifest {
  versions: { flink: string; metadataFormatVersion: number };
  settings: { backend: string };
  operators: { uid: string; parallelism: number; maxParallelism: number; states: ExpectedState[] }[];
}
interface DumpedValue {
  kind: string;
  value?: string | number;
  items?: DumpedValue[];
  fields?: (DumpedValue | { name: string; value: DumpedValue })[];
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

/** A dumped value in the manifest's terms: numbers, strings, lists, Tuple fields f0…, POJO fields by name. */
function plain(v: DumpedValue): Plain {
  switch (v.kind) {
    case 'int':
    case 'long':
      return Number(v.value);
    case 'string':
      return String(v.value);
    case 'list':
      return v.items!.map(plain);
    case 'tuple':
      return Object.fromEntries(v.fields!.map((f, i) => [`f${i}`, plain(f as DumpedValue)]));
    case 'pojo':
      return Object.fromEntries(v.fields!.map((f) => [(f as { name: string }).name, plain((f as { value: DumpedValue }).value)]));
    default:
      throw new Error(`unexpected value kind ${v.kind}`);
  }
}

const cases = listCases();

describe('legacy (Flink 1.8 and 1.10, _metadata version 2) fixture savepoints', () => {
  it('the fixtures are present', () => {
    expect(cases.map((c) => c.name)).toEqual([
      'flink-1.10/filesystem',
      'flink-1.10/filesystem-inline',
      'flink-1.10/rocksdb',
      'flink-1.8/filesystem',
      'flink-1.8/filesystem-inline',
      'flink-1.8/rocksdb',
    ]);
  });

  it("Flink 1.8 RocksDB: the raw keyed state's timer services are listed as the heap backend's managed timer states are", async () => {
    type Doc = { operators: { states: { name: string; kind: string; subtasks: number[]; keyType: string; valueType: string; valueSerializer: string }[] }[] };
    const timersOf = async (backend: string) => {
      const r = await cli(['inspect', join(ROOT, 'flink-1.8', backend, 'savepoint'), '--format', 'json']);
      expect(r.code).toBe(0);
      return (JSON.parse(r.out) as Doc).operators[0]!.states.filter((s) => s.name.startsWith('_timer_state/'))
        .map((s) => ({
          name: s.name,
          kind: s.kind,
          subtasks: s.subtasks,
          key: s.keyType,
          value: s.valueType,
          serializer: s.valueSerializer.replace(/^.*\./, ''),
        }))
        .sort((a, b) => a.name.localeCompare(b.name));
    };
    const raw = await timersOf('rocksdb');
    const timer = { kind: 'PRIORITY_QUEUE', subtasks: [0, 1], key: 'Integer', value: 'Timer<Integer, VoidNamespace>' };
    expect(raw).toEqual([
      { name: '_timer_state/event_user-timers', ...timer, serializer: 'InternalTimersSnapshotReaderWriters$LegacyTimerSerializer' },
      { name: '_timer_state/processing_user-timers', ...timer, serializer: 'InternalTimersSnapshotReaderWriters$LegacyTimerSerializer' },
    ]);
    // the heap backend's twin: the same states, written with the managed TimerSerializer
    expect((await timersOf('filesystem')).map((t) => ({ ...t, serializer: 'InternalTimersSnapshotReaderWriters$LegacyTimerSerializer' }))).toEqual(raw);
    expect((await timersOf('filesystem')).map((t) => t.serializer)).toEqual(['TimerSerializerSnapshot', 'TimerSerializerSnapshot']);
  });

  for (const c of cases) {
    describe(c.name, () => {
      const savepoint = join(c.dir, 'savepoint');
      const op = c.manifest.operators[0]!;

      it('inspect reads version 2 and decodes every state fully, with the expected entry counts', async () => {
        const r = await cli(['inspect', savepoint, '--format', 'json']);
        expect(r.code).toBe(0);
        const doc = JSON.parse(r.out) as {
          metadataVersion: number;
          operators: { id: string; parallelism: number; maxParallelism: number; states: { name: string; decoded: string; entries: number }[] }[];
        };
        expect(doc.metadataVersion).toBe(2);
        expect(c.manifest.versions.metadataFormatVersion).toBe(2);
        const inspected = doc.operators.find((o) => o.id === computeOperatorId(op.uid));
        expect(inspected).toMatchObject({ parallelism: op.parallelism, maxParallelism: op.maxParallelism });
        for (const s of op.states) {
          const got = inspected!.states.find((x) => x.name === s.name);
          const count = s.entries ? s.entries.length : s.partitions!.reduce((n, p) => n + p.values.length, 0);
          expect({ name: s.name, decoded: got?.decoded, entries: got?.entries }).toEqual({ name: s.name, decoded: 'fully', entries: count });
        }
        // the timer queues of the process function, empty; Flink 1.8's RocksDB backend writes its (heap) timers into
        // raw keyed state (InternalTimerServiceSerializationProxy per key group), listed under the same names
        const timers = ['_timer_state/event_user-timers', '_timer_state/processing_user-timers'];
        expect(inspected!.states.filter((x) => !op.states.some((s) => s.name === x.name)).map((x) => [x.name, x.decoded, x.entries])).toEqual(
          timers.map((t) => [t, 'fully', 0]),
        );
      });

      it('dump of the timer states reads every key group and gives no timer (the job left none pending)', async () => {
        for (const t of ['_timer_state/event_user-timers', '_timer_state/processing_user-timers']) {
          const r = await cli(['dump', savepoint, '--operator', op.uid, '--state', t, '--format', 'json']);
          expect({ err: r.err, code: r.code }).toEqual({ err: '', code: 0 });
          expect((JSON.parse(r.out) as { entries: unknown[] }).entries).toEqual([]);
        }
      });

      for (const s of op.states) {
        it(`dump ${s.name} gives exactly the manifest's contents`, async () => {
          const r = await cli(['dump', savepoint, '--operator', op.uid, '--state', s.name, '--format', 'json']);
          expect(r.err).toBe('');
          expect(r.code).toBe(0);
          const entries = (JSON.parse(r.out) as { entries: DumpedEntry[] }).entries;
          if (s.partitions) {
            const bySubtask = s.partitions.map((p) => ({
              subtask: p.subtask,
              values: entries.filter((e) => e.subtask === p.subtask).map((e) => plain(e.value)),
            }));
            expect(bySubtask).toEqual(s.partitions);
            return;
          }
          const got = entries.map((e) => {
            const out: Record<string, unknown> = { key: plain(e.key!), keyGroup: e.keyGroup, subtask: e.subtask };
            if (e.userKey) out.userKey = plain(e.userKey);
            if (s.kind === 'list') out.values = plain(e.value);
            else out.value = plain(e.value);
            return out;
          });
          const order = (x: Record<string, unknown>) => `${String(x.key).padStart(4, '0')}/${String(x.userKey ?? '')}`;
          expect([...got].sort((a, b) => order(a).localeCompare(order(b)))).toEqual([...s.entries!].sort((a, b) => order(a).localeCompare(order(b))));
        });
      }
    });
  }
});
