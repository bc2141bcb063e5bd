/**
 * Golden tests over the incremental RocksDB checkpoints that real Flink wrote (fixtures/flink-writer,
 * IncrementalCheckpointJob; committed under fixtures/rocksdb-checkpoints): two consecutive retained checkpoints
 * of one running job per case, the second sharing the first's SST files and carrying deletions, overwritten
 * values, list appends (merge operands), TTL values and timers. Every entry of both checkpoints must come out
 * of the inspector's normal path (`inspect`, `dump`) exactly as the manifest's model of the job says; the files
 * the manifest calls shared must be the same file in both checkpoints' handles.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { openNodeInput } from '../../src/cli/sources';
import { computeOperatorId, openSavepoint, openSstTable, type StreamHandle } from '../../src/core/flink';
import { bytesSource } from '../../src/core/io';
import { expectSameBytes } from '../helpers/expect-same-bytes';

const ROOT = join(process.cwd(), 'fixtures', 'rocksdb-checkpoints');

interface ExpectedEntry {
  key: string;
  keyGroup: number;
  subtask: number;
  userKey?: string;
  value?: string;
  values?: string[];
  ttlTimestampFrom?: string;
  ttlTimestampTo?: string;
  namespace?: string;
  timestamp?: string;
}
interface Manifest {
  case: string;
  versions: { flink: string };
  settings: { rocksdbCompression: string };
  operator: { uid: string; parallelism: number; maxParallelism: number };
  sharedFiles: string[];
  checkpoints: { folder: string; recordsProcessed: number; files: string[]; states: Record<string, ExpectedEntry[]> }[];
}

interface DumpedValue {
  kind: string;
  value?: string;
  items?: DumpedValue[];
  lastAccessTimestamp?: string;
  timestamp?: string;
  key?: DumpedValue;
  namespace?: DumpedValue;
}
interface DumpedEntry {
  subtask: number;
  keyGroup: number;
  key: DumpedValue;
  namespace: DumpedValue;
  userKey?: DumpedValue;
  value: DumpedValue;
  file: string;
}

function listCases(): { line: string; name: string; dir: string; manifest: Manifest }[] {
  if (!existsSync(ROOT)) return [];
  const out = [];
  for (const line of readdirSync(ROOT).sort()) {
    for (const name of readdirSync(join(ROOT, line)).sort()) {
      const dir = join(ROOT, line, name);
      out.push({ line, name, dir, manifest: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest });
    }
  }
  return out;
}

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => void (out += t), stderr: (t) => void (err += t) });
  return { code, out, err };
}

/** A dumped entry in the manifest's terms (the TTL timestamp checked apart). */
function toExpectedShape(state: string, e: DumpedEntry): ExpectedEntry & { ttl?: string } {
  const base: ExpectedEntry & { ttl?: string } = { key: String(e.key.value), keyGroup: e.keyGroup, subtask: e.subtask };
  if (state.startsWith('_timer_state/')) {
    // a timer's key and namespace are inside the timer, and must be the row's
    expect([e.value.kind, e.value.key, e.value.namespace]).toEqual(['timer', e.key, e.namespace]);
    return { ...base, namespace: e.namespace.kind, timestamp: e.value.timestamp! };
  }
  expect(e.namespace.kind).toBe('void-namespace');
  if (e.userKey) return { ...base, userKey: String(e.userKey.value), value: String(e.value.value) };
  if (e.value.kind === 'list') return { ...base, values: e.value.items!.map((i) => String(i.value)) };
  if (e.value.kind === 'ttl') {
    // the TTL wrapper: the last-access timestamp, then the state's value
    const inner = e.value.value as unknown as DumpedValue;
    return { ...base, value: String(inner.value), ttl: e.value.lastAccessTimestamp! };
  }
  return { ...base, value: String(e.value.value) };
}

const order = (a: ExpectedEntry, b: ExpectedEntry) =>
  a.subtask - b.subtask ||
  a.keyGroup - b.keyGroup ||
  a.key.localeCompare(b.key) ||
  (a.userKey ?? '').localeCompare(b.userKey ?? '') ||
  Number(BigInt(a.timestamp ?? '0') - BigInt(b.timestamp ?? '0'));

function sharedFilesOf(handle: { sharedFiles: { localPath: string; handle: StreamHandle | null }[] }): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of handle.sharedFiles) {
    if (f.handle?.kind !== 'file') throw new Error(`expected a file handle for ${f.localPath}, found ${f.handle?.kind}`);
    out.set(f.localPath, f.handle.path);
  }
  return out;
}

const cases = listCases();

describe('incremental RocksDB checkpoints written by real Flink (fixtures/rocksdb-checkpoints)', () => {
  it("covers both Flink lines, Flink's default compression, ZSTD and LZ4", () => {
    expect(cases.map((c) => `${c.line}/${c.name}`)).toEqual([
      'flink-1.20/default-compression',
      'flink-1.20/lz4',
      'flink-1.20/zstd',
      'flink-2.3/default-compression',
      'flink-2.3/lz4',
      'flink-2.3/zstd',
    ]);
  });

  for (const c of cases) {
    describe(`${c.line}/${c.name}`, () => {
      for (const chk of c.manifest.checkpoints) {
        it(`${chk.folder}: every entry of every state, decoded fully from its SST files`, async () => {
          const dir = join(c.dir, chk.folder);
          const inspected = await cli(['inspect', dir, '--format', 'json']);
          expect([inspected.code, inspected.err]).toEqual([0, '']);
          const doc = JSON.parse(inspected.out) as {
            type: string;
            errors: unknown[];
            summary: unknown;
            operators: { id: string; keyedFormat: string; states: { name: string; entries: number | null; decoded: string }[] }[];
          };
          expect([doc.type, doc.errors]).toEqual(['checkpoint', []]);
          // a checkpoint names operators by id only: the id Flink derives from the uid
          const op = doc.operators.find((o) => o.id === computeOperatorId(c.manifest.operator.uid))!;
          expect(op.keyedFormat).toBe('rocksdb-native');
          const names = Object.keys(chk.states).sort();
          expect(op.states.map((s) => [s.name, s.entries, s.decoded])).toEqual(names.map((n) => [n, chk.states[n]!.length, 'fully']));
          expect(doc.summary).toMatchObject({ partlyDecoded: 0, notRead: 0, notScanned: 0, streamsNotRead: 0 });
          for (const state of names) {
            const dumped = await cli(['dump', dir, '--operator', c.manifest.operator.uid, '--state', state, '--format', 'json']);
            expect([dumped.code, dumped.err], state).toEqual([0, '']);
            const entries = (JSON.parse(dumped.out) as { entries: DumpedEntry[] }).entries;
            // dump lists each subtask's entries in key-group order (the merged order of the SST files)
            for (let i = 1; i < entries.length; i++) {
              const [a, b] = [entries[i - 1]!, entries[i]!];
              expect(a.subtask < b.subtask || (a.subtask === b.subtask && a.keyGroup <= b.keyGroup), `${state} order at ${i}`).toBe(true);
            }
            const got = entries.map((e) => toExpectedShape(state, e));
            const expected = chk.states[state]!;
            const ttl = got.map(({ ttl }) => ttl);
            expect(got.map(({ ttl: _ttl, ...rest }) => rest).sort(order), state).toEqual(
              expected.map(({ ttlTimestampFrom: _f, ttlTimestampTo: _t, ...rest }) => rest).sort(order),
            );
            if (state === 'ttl-last') {
              // the TTL wrapper's timestamp is the wall clock of the update, which the job recorded around it
              const byKey = new Map(expected.map((e) => [e.key, e]));
              got.forEach((g, i) => {
                const want = byKey.get(g.key)!;
                const at = BigInt(ttl[i]!);
                expect(
                  at >= BigInt(want.ttlTimestampFrom!) && at <= BigInt(want.ttlTimestampTo!),
                  `${g.key}: ${at} in [${want.ttlTimestampFrom}, ${want.ttlTimestampTo}]`,
                ).toBe(true);
              });
            } else {
              expect(ttl.every((t) => t === undefined)).toBe(true);
            }
          }
        });
      }

      it("the second checkpoint shares the first one's SST files (the same file in both handles) and adds deletions, merges and values of its own", async () => {
        const [first, second] = await Promise.all(c.manifest.checkpoints.map(async (chk) => openSavepoint(await openNodeInput(join(c.dir, chk.folder)))));
        const handlesOf = (opened: typeof first) =>
          opened!.metadata.operators.flatMap((o) => o.subtasks.map((s) => s.managedKeyedState)).filter((h) => h?.kind === 'incremental');
        const a = handlesOf(first);
        const b = handlesOf(second);
        expect([a.length, b.length]).toEqual([c.manifest.operator.parallelism, c.manifest.operator.parallelism]);
        const shared = new Set<string>();
        let reusedSst = 0;
        const newSst: string[] = [];
        for (let i = 0; i < a.length; i++) {
          const before = sharedFilesOf(a[i] as Parameters<typeof sharedFilesOf>[0]);
          const after = sharedFilesOf(b[i] as Parameters<typeof sharedFilesOf>[0]);
          for (const [local, path] of after) {
            const base = path.split('/').pop()!;
            if (before.get(local) === path) {
              shared.add(base);
              if (local.endsWith('.sst')) reusedSst++;
              // the two copies of the fixture are the same bytes
              expectSameBytes(
                readFileSync(join(c.dir, c.manifest.checkpoints[1]!.folder, base)),
                readFileSync(join(c.dir, c.manifest.checkpoints[0]!.folder, base)),
              );
            } else if (local.endsWith('.sst')) {
              expect([...before.values()]).not.toContain(path);
              newSst.push(base);
            }
          }
        }
        expect(reusedSst).toBeGreaterThan(0);
        expect(newSst.length).toBeGreaterThan(0);
        // whatever both _metadata name is a shared file both handles hold at the same path (CURRENT, MANIFEST and OPTIONS are per checkpoint)
        expect([...shared].filter((f) => c.manifest.sharedFiles.includes(f)).sort()).toEqual([...shared].sort());
        // the new files carry deletions (clear, map remove, deleted timers), merge operands (list appends) and values (overwrites)
        const types = new Set<number>();
        const compressions = new Set<string>();
        for (const base of newSst) {
          const bytes = readFileSync(join(c.dir, c.manifest.checkpoints[1]!.folder, base));
          const table = await openSstTable(bytesSource(base, new Uint8Array(bytes)), base);
          compressions.add(table.properties.compression ?? '?');
          for await (const e of table.entries()) types.add(e.type);
        }
        expect([...types].sort()).toEqual([0, 1, 2]);
        const want = { 'Flink default': 'Snappy', ZSTD_COMPRESSION: 'ZSTD', LZ4_COMPRESSION: 'LZ4' }[c.manifest.settings.rocksdbCompression];
        expect([...compressions]).toEqual([want]);
      });
    });
  }
});
