/**
 * Key-group shards (`stats --key-groups A-B`, `merge-stats`): on every fixture kind with keyed state
 * (canonical, HashMap native, RocksDB native, incremental RocksDB checkpoint) three shards merged give the
 * whole run's `stats --format json` byte for byte (but `bytesRead`: each shard reads the headers of the
 * subtasks it shares with its neighbours, so the shards' sum is larger, and it is theirs); a shard opens
 * no state file of a subtask outside its key groups; the bad inputs' exact messages (exit 2).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSnapshotRegistry, openSavepoint, scanState } from '../../src/core/flink';
import type { StateScanSelection } from '../../src/core/flink/scan/scan-types';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { openNodeInput } from '../../src/cli/sources';
import { runCli } from '../../src/cli/run-cli';
import { meetsKeyGroupRange } from '../../src/core/flink/scan/scan-state';
import { recordSavepointReads } from '../helpers/record-savepoint-reads';
import { requireCommitted } from '../helpers/committed-data';
import packageJson from '../../package.json' with { type: 'json' };

const FIXTURES = {
  canonical: 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint',
  'hashmap native': 'fixtures/savepoints/flink-1.20/hashmap/native',
  'rocksdb native': 'fixtures/savepoints/flink-2.3/rocksdb/native',
  incremental: 'fixtures/rocksdb-checkpoints/flink-2.3/lz4/chk-2',
} as const;

const dir = mkdtempSync(path.join(tmpdir(), 'kg-shards-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

/** The savepoint's key groups (its shard file says), from a one-key-group shard. */
async function maxParallelismOf(input: string): Promise<number> {
  const r = await cli(['stats', input, '--format', 'json', '--workers', '1', '--key-groups', '0-0']);
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { shard: { maxParallelism: number } }).shard.maxParallelism;
}

const withoutBytesRead = (json: string) => json.replace(/\n {2}"bytesRead": \d+,\n/, '\n');

describe('key-group shards of stats merge into the whole run', () => {
  for (const [kind, rel] of Object.entries(FIXTURES)) {
    it(`${kind}: three shards merged equal the whole run's stats JSON byte for byte (but bytesRead)`, async () => {
      const input = requireCommitted(rel);
      const whole = await cli(['stats', input, '--format', 'json', '--workers', '1']);
      expect(whole.code).toBe(0);
      const max = await maxParallelismOf(input);
      // cuts that do not fall on the subtasks' boundaries: a subtask's key groups are split over two shards
      const a = Math.floor(max / 3);
      const b = Math.floor((2 * max) / 3) + 1;
      const ranges = [`0-${a - 1}`, `${a}-${b - 1}`, `${b}-${max - 1}`];
      const files: string[] = [];
      let shardBytes = 0;
      for (const range of ranges) {
        const shard = await cli(['stats', input, '--format', 'json', '--workers', '1', '--key-groups', range]);
        expect(shard.code, shard.stderr).toBe(0);
        const f = path.join(dir, `${kind.replace(/ /g, '-')}-${range}.json`);
        writeFileSync(f, shard.stdout);
        files.push(f);
        shardBytes += (JSON.parse(shard.stdout) as { bytesRead: number }).bytesRead;
      }
      // given in any order
      const merged = await cli(['merge-stats', files[2]!, files[0]!, files[1]!]);
      expect(merged.code, merged.stderr).toBe(0);
      expect(withoutBytesRead(merged.stdout)).toBe(withoutBytesRead(whole.stdout));
      expect((JSON.parse(merged.stdout) as { bytesRead: number }).bytesRead).toBe(shardBytes);
      const states = (JSON.parse(whole.stdout) as { states: { entries: number; scope: string }[] }).states;
      expect(states.filter((s) => s.scope === 'keyed').reduce((n, s) => n + s.entries, 0)).toBeGreaterThan(0);
    });
  }

  it('a shard opens no state file of a subtask whose key groups it does not meet, and no operator state but with key group 0', async () => {
    const input = requireCommitted(FIXTURES.canonical);
    const files = await openNodeInput(input);
    const plain = await openSavepoint(files);
    const op = plain.metadata.operators.find((o) => o.subtasks.filter((s) => s.managedKeyedState !== null).length >= 2)!;
    const second = op.subtasks.find((s) => s.index === 1)!;
    const range = { ...second.managedKeyedState!.range };
    const reads: [string, number, number][] = [];
    const opened = await openSavepoint(recordSavepointReads(files, reads));
    const registry = createSnapshotRegistry();
    registerProtobufSnapshotReaders(registry);
    let entries = 0;
    await scanState(opened, registry, { keyGroupRange: range }, { entry: () => void entries++ }, { values: { mode: 'skip' } });
    const meeting = opened.metadata.operators.flatMap((o) => o.subtasks.filter((s) => meetsKeyGroupRange(s, range)));
    const keyedFiles = new Set(meeting.map((s) => (s.managedKeyedState as { delegate: { relativePath?: string } }).delegate.relativePath));
    expect(reads.length).toBeGreaterThan(0);
    for (const [file] of reads) expect(keyedFiles.has(file), file).toBe(true);
    expect(entries).toBeGreaterThan(0);
  });
});

describe('key-group shards of RocksDB native state', () => {
  it('a shard opens no SST table whose keys (by the MANIFEST key bounds) lie outside its key groups', async () => {
    const input = requireCommitted(FIXTURES['rocksdb native']);
    const files = await openNodeInput(input);
    const read = async (selection: StateScanSelection) => {
      const reads: [string, number, number][] = [];
      const opened = await openSavepoint(recordSavepointReads(files, reads));
      const registry = createSnapshotRegistry();
      registerProtobufSnapshotReaders(registry);
      const keyGroups = new Set<number>();
      await scanState(opened, registry, selection, { entry: (e) => void keyGroups.add(e.keyGroup!) }, { values: { mode: 'skip' } });
      return { files: new Set(reads.map((r) => r[0])), keyGroups };
    };
    // key group 0 is every operator's subtask 0: the shard 0-0, and the same key group selected as the app's pages select it (every table of the subtask opened)
    const shard = await read({ keyGroupRange: { start: 0, end: 0 }, operatorState: false });
    const page = await read({ keyGroups: [0], subtasks: [0], scopes: ['keyed'] });
    expect([...shard.keyGroups]).toEqual([0]);
    expect([...page.keyGroups]).toEqual([0]);
    for (const f of shard.files) expect(page.files.has(f), f).toBe(true);
    expect(shard.files.size).toBeLessThan(page.files.size);
  });
});

describe('key-group shards of dump', () => {
  for (const [kind, rel] of Object.entries(FIXTURES)) {
    it(`${kind}: the entries of three shards, in key-group order, are the whole dump's`, async () => {
      const input = requireCommitted(rel);
      const stats = JSON.parse((await cli(['stats', input, '--format', 'json', '--workers', '1'])).stdout) as {
        states: { operatorId: string; state: string; scope: string; entries: number }[];
      };
      const keyed = stats.states.filter((s) => s.scope === 'keyed').sort((x, y) => y.entries - x.entries)[0]!;
      const dump = async (extra: string[]) => {
        const r = await cli(['dump', input, '--operator', keyed.operatorId, '--state', keyed.state, '--format', 'json', ...extra]);
        expect(r.code, r.stderr).toBe(0);
        return (JSON.parse(r.stdout) as { entries: unknown[] }).entries;
      };
      const whole = await dump([]);
      expect(whole.length).toBe(keyed.entries);
      const max = await maxParallelismOf(input);
      const a = Math.floor(max / 3);
      const b = Math.floor((2 * max) / 3) + 1;
      const parts = [
        ...(await dump(['--key-groups', `0-${a - 1}`])),
        ...(await dump(['--key-groups', `${a}-${b - 1}`])),
        ...(await dump(['--key-groups', `${b}-${max - 1}`])),
      ];
      expect(parts).toEqual(whole);
    });
  }
});

describe('key-group shards: bad input', () => {
  const input = FIXTURES['hashmap native'];

  it('a range outside [0, maxParallelism) is exit 2 naming the max', async () => {
    const r = await cli(['stats', input, '--format', 'json', '--key-groups', '100-256']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--key-groups 100-256 is outside this savepoint's key groups 0-255 (its max parallelism is 256)");
    const bad = await cli(['stats', input, '--key-groups', '9-3']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--key-groups expects A <= B in A-B, found 9-3');
  });

  async function shard(range: string, name = range, extra: string[] = [], from: string = input): Promise<string> {
    const r = await cli(['stats', from, '--format', 'json', '--workers', '1', '--key-groups', range, ...extra]);
    expect(r.code, r.stderr).toBe(0);
    const f = path.join(dir, `bad-${name}.json`);
    writeFileSync(f, r.stdout);
    return f;
  }

  it('missing and doubled key groups are named, and operator state read by one shard', async () => {
    const a = await shard('0-99');
    const b = await shard('90-199');
    const c = await shard('210-255');
    const r = await cli(['merge-stats', a, b, c]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `expected shards covering key groups 0-255 once each, found: key groups 90-99 (${a} and ${b}) are in more than one shard; key groups 200-209 are in no shard`,
    );
    const d = await shard('100-255', 'op', ['--operator-state', 'yes']);
    const e = await shard('0-99', 'no-op', ['--operator-state', 'no']);
    const twice = await cli(['merge-stats', a, d]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain(`expected one shard that read the operator state, found 2: ${a}, ${d}`);
    const none = await cli(['merge-stats', e, await shard('100-255')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('expected one shard that read the operator state (the one of key group 0, or --operator-state yes), found none');
    // operator state read by the last shard instead: the same whole
    const whole = await cli(['stats', input, '--format', 'json', '--workers', '1']);
    const moved = await cli(['merge-stats', e, d]);
    expect(moved.code, moved.stderr).toBe(0);
    expect(withoutBytesRead(moved.stdout)).toBe(withoutBytesRead(whole.stdout));
  });

  it('shards of two savepoints, of two schemas, or of another tool version are refused naming both', async () => {
    const a = await shard('0-99', 'sp-a');
    const other = await shard('100-255', 'sp-b', [], 'fixtures/savepoints/flink-1.20/rocksdb/native');
    const otherDoc = JSON.parse(readFileSync(other, 'utf8')) as { shard: { savepoint: { checkpointId: string; metadataSha256: string } } };
    const mine = (JSON.parse(readFileSync(a, 'utf8')) as typeof otherDoc).shard.savepoint;
    const r = await cli(['merge-stats', a, other]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `expected shards of one savepoint, found two: ${a} (checkpoint ${mine.checkpointId}, _metadata sha256 ${mine.metadataSha256.slice(0, 12)}) and ${other} (checkpoint ${otherDoc.shard.savepoint.checkpointId}, _metadata sha256 ${otherDoc.shard.savepoint.metadataSha256.slice(0, 12)})`,
    );
    const schema = await shard('100-255', 'schema', ['--descriptors', 'fixtures/kryo-savepoints/events.binpb']);
    const s = await cli(['merge-stats', a, schema]);
    expect(s.code).toBe(2);
    const sha = (JSON.parse(readFileSync(schema, 'utf8')) as { shard: { schemaSha256: string } }).shard.schemaSha256;
    expect(s.stderr).toContain(`expected shards scanned with one schema, found two: ${a} (no --descriptors) and ${schema} (schema sha256 ${sha.slice(0, 12)})`);
    const old = path.join(dir, 'old-version.json');
    const doc = JSON.parse(readFileSync(await shard('100-255', 'v'), 'utf8')) as { shard: { toolVersion: string } };
    doc.shard.toolVersion = '0.0.1';
    writeFileSync(old, JSON.stringify(doc));
    const v = await cli(['merge-stats', a, old]);
    expect(v.code).toBe(2);
    expect(v.stderr).toContain(`${old} was written by savepoint-inspector 0.0.1, this is ${packageJson.version}: write every shard with the same version`);
  });
});
