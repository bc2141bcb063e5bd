/**
 * `export --key-groups A-B`: three shards of every state of an operator with keyed state (each fixture
 * kind: canonical, HashMap native, RocksDB native, incremental RocksDB checkpoint) write part files
 * (`<scope>-<state>/part-A-B.parquet`) that DuckDB reads as one table per state, holding the same rows
 * as the whole export (compared as sorted JSON rows).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { requireCommitted } from '../helpers/committed-data';

const FIXTURES = {
  canonical: 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint',
  'hashmap native': 'fixtures/savepoints/flink-1.20/hashmap/native',
  'rocksdb native': 'fixtures/savepoints/flink-2.3/rocksdb/native',
  incremental: 'fixtures/rocksdb-checkpoints/flink-2.3/lz4/chk-2',
} as const;

const dir = mkdtempSync(path.join(tmpdir(), 'export-shards-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

describe('export --key-groups: Parquet part files read as one table', () => {
  for (const [kind, rel] of Object.entries(FIXTURES)) {
    it(`${kind}: three shards' part files hold the whole export's rows`, async () => {
      const input = requireCommitted(rel);
      const stats = JSON.parse((await cli(['stats', input, '--format', 'json', '--workers', '1'])).stdout) as {
        states: { operatorId: string; scope: string; entries: number }[];
      };
      const keyed = stats.states.filter((s) => s.scope === 'keyed').sort((a, b) => b.entries - a.entries)[0]!;
      expect(keyed.entries).toBeGreaterThan(0);
      const op = keyed.operatorId;
      const name = kind.replace(/ /g, '-');
      const whole = path.join(dir, `${name}-whole`);
      const r = await cli(['export', input, '--operator', op, '--all', '--format', 'parquet', '--output', whole]);
      expect(r.code, r.stderr).toBe(0);
      const max = (
        JSON.parse((await cli(['stats', input, '--format', 'json', '--workers', '1', '--key-groups', '0-0'])).stdout) as { shard: { maxParallelism: number } }
      ).shard.maxParallelism;
      const a = Math.floor(max / 3);
      const b = Math.floor((2 * max) / 3) + 1;
      const parts = path.join(dir, `${name}-parts`);
      for (const range of [`0-${a - 1}`, `${a}-${b - 1}`, `${b}-${max - 1}`]) {
        const p = await cli(['export', input, '--operator', op, '--all', '--format', 'parquet', '--output', parts, '--key-groups', range]);
        expect(p.code, p.stderr).toBe(0);
      }
      const c = await (await DuckDBInstance.create(':memory:')).connect();
      const rows = async (from: string) =>
        ((await c.runAndReadAll(`SELECT to_json(t)::VARCHAR AS j FROM ${from} t ORDER BY j`)).getRowObjectsJson() as { j: string }[]).map((x) => x.j);
      const files = readdirSync(whole).filter((f) => f.endsWith('.parquet'));
      expect(files.length).toBeGreaterThan(0);
      let total = 0;
      for (const f of files) {
        const folder = path.join(parts, f.replace(/\.parquet$/, ''));
        expect(readdirSync(folder).sort()).toEqual([`part-${a}-${b - 1}.parquet`, `part-0-${a - 1}.parquet`, `part-${b}-${max - 1}.parquet`].sort());
        const want = await rows(`read_parquet('${path.join(whole, f)}')`);
        const got = await rows(`read_parquet('${folder}/*.parquet')`);
        expect(got).toEqual(want);
        total += want.length;
      }
      expect(total).toBeGreaterThan(0);
    });
  }

  it('a range past the savepoint key groups is exit 2', async () => {
    const input = FIXTURES.canonical;
    const bad = await cli(['export', input, '--operator', 'x', '--all', '--format', 'parquet', '--output', path.join(dir, 'x'), '--key-groups', '0-100000']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--key-groups 0-100000 is outside this savepoint's key groups 0-\d+ \(its max parallelism is \d+\)/);
  });
});
