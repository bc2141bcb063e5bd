/**
 * `check`'s value scan in key-group shards: `check --values-only --key-groups A-B --output FILE` on three
 * ranges of each fixture kind with keyed state (canonical, HashMap native, RocksDB native, incremental
 * RocksDB checkpoint, whose states are not Protobuf: no values to scan there), then `check --value-scans DIR`, gives the single-machine `check` report byte for
 * byte; shard files of another savepoint or another schema, or that miss key groups, are refused (exit 2).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { requireCommitted } from '../helpers/committed-data';

const FIXTURES = {
  canonical: 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint',
  'hashmap native': 'fixtures/savepoints/flink-1.20/hashmap/native',
  'rocksdb native': 'fixtures/savepoints/flink-2.3/rocksdb/native',
  incremental: 'fixtures/rocksdb-checkpoints/flink-2.3/lz4/chk-2',
} as const;
const SCHEMA = 'src/ui/demo-schema/events-changed.binpb';

const dir = mkdtempSync(path.join(tmpdir(), 'value-scan-shards-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

async function writeShards(input: string, folder: string, ranges: readonly string[]): Promise<void> {
  mkdirSync(folder, { recursive: true });
  for (const range of ranges) {
    const r = await cli(['check', input, '--descriptors', SCHEMA, '--values-only', '--key-groups', range, '--output', path.join(folder, `part-${range}.json`)]);
    expect(r.code, r.stderr).toBe(0);
  }
}

async function maxParallelismOf(input: string): Promise<number> {
  const f = path.join(dir, 'probe.json');
  const r = await cli(['check', input, '--descriptors', SCHEMA, '--values-only', '--key-groups', '0-0', '--output', f]);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(readFileSync(f, 'utf8')) as { shard: { maxParallelism: number } }).shard.maxParallelism;
}

describe("check's value scan in key-group shards", () => {
  for (const [kind, rel] of Object.entries(FIXTURES)) {
    it(`${kind}: three shards' value scans make the single-machine report byte for byte`, async () => {
      const input = requireCommitted(rel, SCHEMA);
      const whole = await cli(['check', input, '--descriptors', SCHEMA, '--format', 'json', '--workers', '1']);
      const max = await maxParallelismOf(input);
      const a = Math.floor(max / 3);
      const b = Math.floor((2 * max) / 3) + 1;
      const folder = path.join(dir, kind.replace(/ /g, '-'));
      await writeShards(input, folder, [`0-${a - 1}`, `${a}-${b - 1}`, `${b}-${max - 1}`]);
      const merged = await cli(['check', input, '--descriptors', SCHEMA, '--format', 'json', '--value-scans', folder]);
      expect(merged.stderr).toBe(whole.stderr);
      expect(merged.code).toBe(whole.code);
      expect(merged.stdout).toBe(whole.stdout);
      // the values were read (the incremental checkpoint holds no Protobuf state: its report has none to scan)
      if (kind !== 'incremental') expect(whole.stdout).toContain('"valuesScanned"');
    });
  }

  it('refuses value scans of another savepoint, of another schema, and with key groups missing', async () => {
    const input = FIXTURES['hashmap native'];
    const folder = path.join(dir, 'bad');
    await writeShards(input, folder, ['0-99', '150-255']);
    const gap = await cli(['check', input, '--descriptors', SCHEMA, '--value-scans', folder]);
    expect(gap.code).toBe(2);
    expect(gap.stderr).toContain('expected shards covering key groups 0-255 once each, found: key groups 100-149 are in no shard');
    await writeShards(input, folder, ['100-149']);
    const other = await cli(['check', 'fixtures/savepoints/flink-1.20/rocksdb/native', '--descriptors', SCHEMA, '--value-scans', folder]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(
      /expected value scans of the savepoint checked, found another: .*part-0-99\.json \(checkpoint \d+, _metadata sha256 [0-9a-f]{12}\), this check reads checkpoint \d+, _metadata sha256 [0-9a-f]{12}/,
    );
    const schema = await cli(['check', input, '--descriptors', SCHEMA, '--max-message-size', '1000', '--value-scans', folder]);
    expect(schema.code).toBe(2);
    expect(schema.stderr).toMatch(
      /expected value scans made with this check's schema and options, found others: .*part-0-99\.json \(schema sha256 [0-9a-f]{12}\), this check's schema sha256 [0-9a-f]{12}/,
    );
    const ok = await cli(['check', input, '--descriptors', SCHEMA, '--format', 'json', '--value-scans', folder]);
    const whole = await cli(['check', input, '--descriptors', SCHEMA, '--format', 'json', '--workers', '1']);
    expect(ok.stdout).toBe(whole.stdout);
    writeFileSync(path.join(folder, 'extra.json'), readFileSync(path.join(folder, 'part-100-149.json')));
    const doubled = await cli(['check', input, '--descriptors', SCHEMA, '--value-scans', folder]);
    expect(doubled.code).toBe(2);
    expect(doubled.stderr).toContain(
      `key groups 100-149 (${path.join(folder, 'extra.json')} and ${path.join(folder, 'part-100-149.json')}) are in more than one shard`,
    );
  });

  it('--key-groups without --values-only is a usage error', async () => {
    const r = await cli(['check', FIXTURES.canonical, '--descriptors', SCHEMA, '--key-groups', '0-3']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--key-groups needs --values-only (a report covers the whole savepoint: merge the shards' value scans with --value-scans DIR)");
  });
});
