/**
 * `stats`' TTL state: how many values were expired at the savepoint's time (the newest access time) or at
 * `--ttl-at`, and their oldest and newest access. Golden on the incremental RocksDB checkpoints written by
 * real Flink, whose manifests record each TTL value's last-access timestamp (the wall clock bounds of its
 * write); byte-level on a canonical savepoint built here with TTL value, list and map state, exact text and JSON.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ByteWriter } from '../../src/core/io';
import { runCli } from '../../src/cli/run-cli';
import { requireCommitted } from '../helpers/committed-data';
import { writeOneKeyedSavepoint } from '../helpers/write-one-keyed-savepoint';
import { CLS, list, map, simple, valueState, writeKeyedHeader, type SnapshotSpec } from '../helpers/write-test-snapshots';

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

interface Ttl {
  entries: number;
  values: number;
  oldestAccess: number | null;
  newestAccess: number | null;
  expiredValues?: number;
  expiredEntries?: number;
}
interface StatsJson {
  states: { state: string; entries: number; ttl?: Ttl }[];
  ttlExpiry?: { ttlMs: number; atMs: number | null; at: string };
}

async function statsJson(input: string, ...extra: string[]): Promise<StatsJson> {
  const r = await cli(['stats', input, '--format', 'json', ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as StatsJson;
}

// one compression of each Flink version, both its checkpoints: every TTL case of the corpus once
const CHECKPOINTS = ['flink-1.20/default-compression', 'flink-2.3/zstd'];

describe('stats --ttl on the incremental RocksDB checkpoints written by Flink', () => {
  for (const rel of CHECKPOINTS) {
    const root = requireCommitted(path.resolve(process.cwd(), 'fixtures/rocksdb-checkpoints', rel));
    const manifest = JSON.parse(readFileSync(path.join(root, 'manifest.json'), 'utf8')) as {
      checkpoints: { folder: string; states: Record<string, { ttlTimestampFrom?: string; ttlTimestampTo?: string }[]> }[];
    };
    for (const c of manifest.checkpoints) {
      it(`${rel}/${c.folder}: the TTL values' count, access times and expired counts the manifest's timestamps give`, async () => {
        const written = c.states['ttl-last']!;
        // Flink stamps a TTL value with the wall clock: the writer recorded the clock before and after; here both agree
        const stamps = written.map((e) => Number(e.ttlTimestampFrom));
        expect(written.map((e) => Number(e.ttlTimestampTo))).toEqual(stamps);
        const oldest = Math.min(...stamps);
        const newest = Math.max(...stamps);
        const input = path.join(root, c.folder);
        // without --ttl: the count and access times, nothing judged
        const plain = await statsJson(input, '--workers', '1');
        expect(plain.ttlExpiry).toBeUndefined();
        expect(plain.states.find((s) => s.state === 'ttl-last')!.ttl).toEqual({
          entries: stamps.length,
          values: stamps.length,
          oldestAccess: oldest,
          newestAccess: newest,
        });
        // only the TTL state has a TTL tally
        expect(plain.states.filter((s) => s.ttl).map((s) => s.state)).toEqual(['ttl-last']);
        // judged at a given time: the values whose last access + TTL is at or before it (the boundary counts as expired)
        const at = newest;
        const ttlMs = newest - oldest || 1;
        const expired = stamps.filter((t) => t + ttlMs <= at).length;
        for (const workers of ['1', '2']) {
          const judged = await statsJson(input, '--workers', workers, '--ttl', `${ttlMs}ms`, '--ttl-at', String(at));
          expect(judged.ttlExpiry).toEqual({ ttlMs, atMs: at, at: 'given' });
          expect(judged.states.find((s) => s.state === 'ttl-last')!.ttl).toMatchObject({ expiredValues: expired, expiredEntries: expired });
        }
        expect(expired).toBeGreaterThan(0);
        // the default time: the newest access time (a first pass finds it); the same counts as given it
        const byDefault = await statsJson(input, '--ttl', `${ttlMs}ms`);
        expect(byDefault.ttlExpiry).toEqual({ ttlMs, atMs: newest, at: 'newest-access' });
        expect(byDefault.states.find((s) => s.state === 'ttl-last')!.ttl).toMatchObject({ expiredValues: expired, expiredEntries: expired });
      });
    }
  }

  it('the TTL state of the fixture savepoints: one value per entry in every storage variant, with its access times', async () => {
    for (const v of ['hashmap/canonical', 'hashmap/native', 'rocksdb/canonical', 'rocksdb/native']) {
      const input = requireCommitted(path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3', v, 'savepoint'));
      const s = (await statsJson(input, '--workers', '1')).states.find((x) => x.state === 'ttl-last-event')!;
      expect(s.entries, v).toBe(3);
      expect(s.ttl, v).toMatchObject({ entries: 3, values: 3 });
      // each variant was written by its own run of the job: stamps of that run, the oldest not after the newest
      expect(s.ttl!.oldestAccess! <= s.ttl!.newestAccess!, v).toBe(true);
    }
  });
});

describe('stats --ttl over key-group shards', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'stats-ttl-shards-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const input = requireCommitted(path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/native/savepoint'));
  const withoutBytesRead = (json: string) => json.replace(/\n {2}"bytesRead": \d+,\n/, '\n');

  async function shard(range: string, at: string): Promise<string> {
    const r = await cli(['stats', input, '--format', 'json', '--workers', '1', '--key-groups', range, '--ttl', '1d', '--ttl-at', at]);
    expect(r.code, r.stderr).toBe(0);
    const f = path.join(dir, `${range}-${at}.json`);
    writeFileSync(f, r.stdout);
    return f;
  }

  it('shards judged at one --ttl-at merge into the whole run byte for byte (but bytesRead); shards of two times are refused naming both', async () => {
    // a day after the newest access: every value of the savepoint expired
    const newest = (await statsJson(input, '--workers', '1')).states.find((s) => s.state === 'ttl-last-event')!.ttl!.newestAccess!;
    const at = String(newest + 86_400_000);
    const whole = await cli(['stats', input, '--format', 'json', '--workers', '1', '--ttl', '1d', '--ttl-at', at]);
    expect(whole.code, whole.stderr).toBe(0);
    expect((JSON.parse(whole.stdout) as StatsJson).states.find((s) => s.state === 'ttl-last-event')!.ttl).toMatchObject({
      expiredValues: 3,
      expiredEntries: 3,
    });
    const a = await shard('0-99', at);
    const b = await shard('100-255', at);
    const merged = await cli(['merge-stats', b, a]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(withoutBytesRead(merged.stdout)).toBe(withoutBytesRead(whole.stdout));
    const other = await shard('100-255', '0');
    const r = await cli(['merge-stats', a, other]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `expected shards of one --ttl and --ttl-at, found two: ${a} (--ttl 86400000 ms at ${new Date(Number(at)).toISOString()}) and ${other} (--ttl 86400000 ms at 1970-01-01T00:00:00.000Z)`,
    );
  });
});

// a canonical savepoint built byte by byte: a Long key, TTL value, list and map state of Strings
const OP = 'c'.repeat(32);
const ttlOf = (s: SnapshotSpec): SnapshotSpec => ({ composite: CLS.ttl, outerVersion: 2, nested: [simple(CLS.long), s] });

function writeTtlSavepoint(dir: string): void {
  const str = simple(CLS.string);
  const header = writeKeyedHeader(new ByteWriter(), simple(CLS.long), [
    valueState('v', ttlOf(str)),
    valueState('l', list(ttlOf(str)), simple(CLS.voidNs), 'LIST'),
    valueState('m', map(str, ttlOf(str)), simple(CLS.voidNs), 'MAP'),
  ]).finish();
  // key: 1-byte key group prefix (0), the Long key, VoidNamespace (1 byte); a map entry's user key after it
  const key = (k: number, userKey?: string) => {
    const w = new ByteWriter().u8(0).i64(BigInt(k)).u8(0);
    if (userKey !== undefined) w.stringValue(userKey);
    return w.finish();
  };
  const ttlValue = (ts: number, v: string) => new ByteWriter().i64(BigInt(ts)).stringValue(v).finish();
  const block = new ByteWriter();
  const run = (stateId: number, entries: [Uint8Array, Uint8Array][]) => {
    block.u16(stateId);
    entries.forEach(([k, v], i) => {
      // the last entry of a state's run carries the 0x80 flag on its first key byte
      if (i === entries.length - 1) k[0]! |= 0x80;
      block.i32(k.length).bytes(k).i32(v.length).bytes(v);
    });
  };
  run(0, [
    [key(1), ttlValue(1000, 'a')],
    [key(2), ttlValue(2000, 'b')],
    [key(3), ttlValue(3000, 'c')],
  ]);
  const elements = (...items: [number, string][]) => {
    const w = new ByteWriter();
    items.forEach(([ts, v], i) => {
      if (i > 0) w.u8(0x2c);
      w.bytes(ttlValue(ts, v));
    });
    return w.finish();
  };
  run(1, [
    [key(1), elements([1000, 'x'], [5000, 'y'])],
    [key(2), elements([1200, 'z'], [1400, 'w'])],
  ]);
  // a map value: its null flag (false), then the TTL value
  const mapValue = (ts: number, v: string) => new ByteWriter().bool(false).bytes(ttlValue(ts, v)).finish();
  run(2, [
    [key(1, 'a'), mapValue(500, 'p')],
    [key(1, 'b'), mapValue(4000, 'q')],
  ]);
  block.u16(0xffff);
  const state = new ByteWriter().bytes(header).bytes(block.finish()).finish();
  writeOneKeyedSavepoint(dir, { operatorId: OP, maxParallelism: 1, keyGroupOffset: header.length, state });
}

describe('stats --ttl on TTL value, list and map state built byte by byte', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'stats-ttl-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const input = path.join(dir, 'sp');
  writeTtlSavepoint(input);

  it('counts each element of a list and each map value, and an entry as expired when all its values are', async () => {
    const r = await statsJson(input, '--workers', '1', '--ttl', '2s', '--ttl-at', '1970-01-01T00:00:03.500Z');
    expect(r.ttlExpiry).toEqual({ ttlMs: 2000, atMs: 3500, at: 'given' });
    expect(Object.fromEntries(r.states.map((s) => [s.state, s.ttl]))).toEqual({
      // 1000 + 2000 <= 3500: expired; 2000 + 2000 > 3500: not
      v: { entries: 3, values: 3, oldestAccess: 1000, newestAccess: 3000, expiredValues: 1, expiredEntries: 1 },
      // key 1: 1000 expired, 5000 not; key 2: 1200 and 1400 both expired (Flink reads the list as empty)
      l: { entries: 2, values: 4, oldestAccess: 1000, newestAccess: 5000, expiredValues: 3, expiredEntries: 1 },
      m: { entries: 2, values: 2, oldestAccess: 500, newestAccess: 4000, expiredValues: 1, expiredEntries: 1 },
    });
  });

  it('judges at the newest access time by default, the boundary (last access + TTL = the time) expired, and says so in the text', async () => {
    const r = await cli(['stats', input, '--workers', '1', '--ttl', '2s']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[1]).toBe(
      "  TTL 2s, values judged at 1970-01-01T00:00:05.000Z (the newest access time of the savepoint's TTL values: _metadata records no time, and the savepoint was taken at or after it; found in a first pass): expired when last access + TTL <= that time",
    );
    expect(lines.filter((l) => l.startsWith('    TTL:'))).toEqual([
      // 3000 + 2000 = 5000: expired
      '    TTL: 3 values, last access 1970-01-01T00:00:01.000Z to 1970-01-01T00:00:03.000Z; 3 expired',
      '    TTL: 4 values in 2 entries, last access 1970-01-01T00:00:01.000Z to 1970-01-01T00:00:05.000Z; 3 expired (1 entries wholly)',
      '    TTL: 2 values, last access 1970-01-01T00:00:00.500Z to 1970-01-01T00:00:04.000Z; 1 expired',
    ]);
  });

  it('refuses a --ttl it cannot read, --ttl-at without --ttl, and a shard without --ttl-at (exit 2, nothing read)', async () => {
    const bad = await cli(['stats', input, '--ttl', '7 weeks']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe(
      "savepoint-inspector stats: --ttl expects a time-to-live such as 7d, 12h, 30m, 45s or 500ms (at least 1 ms), found '7 weeks'",
    );
    const at = await cli(['stats', input, '--ttl', '1d', '--ttl-at', '2026-12-01']);
    expect(at.code).toBe(2);
    expect(at.stderr).toContain("--ttl-at expects an ISO 8601 time with its zone (2026-12-01T00:00:00Z) or epoch milliseconds, found '2026-12-01'");
    const alone = await cli(['stats', input, '--ttl-at', '0']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--ttl-at needs --ttl DURATION (the time-to-live is not in the savepoint)');
    const shard = await cli(['stats', input, '--ttl', '1d', '--key-groups', '0-0', '--format', 'json']);
    expect(shard.code).toBe(2);
    expect(shard.stderr).toContain('--ttl with --key-groups needs --ttl-at');
  });
});
