/**
 * How `export` (and every command that writes a file or stdout) fails: a write the system refuses is
 * the user's environment (exit 2, the path and what the OS said, never an internal error); a value that
 * could not be decoded makes every format's export fail (exit 1, the count in the summary line); and a
 * failed export leaves no complete-looking file — its temporary file is removed, or kept as
 * `<file>.partial` with --keep-partial, the reason in the file (a last JSON line, Parquet metadata).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { writeSavepointWithPatchedValue } from '../helpers/write-savepoint-with-huge-value';

const SAVEPOINT = 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint';
const FORMATS = ['jsonl', 'csv', 'parquet', 'arrow'] as const;
const dir = mkdtempSync(path.join(tmpdir(), 'export-failures-'));
let cutShort: string;

beforeAll(() => {
  // the first processed-events value gains field 200 declared 100 bytes long, with none following: cut short
  cutShort = writeSavepointWithPatchedValue(SAVEPOINT, path.join(dir, 'cut-short'), new Uint8Array([0xc2, 0x0c, 100]));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

const exportArgs = (savepoint: string, format: string, output: string, ...more: string[]) => [
  'export',
  savepoint,
  '--operator',
  'int-keyed',
  '--state',
  'processed-events',
  '--format',
  format,
  '--output',
  output,
  '--quiet',
  ...more,
];

describe("a write the system refuses is the user's environment: exit 2 with the path and what the OS said", () => {
  it('export --output /dev/full, in every format', async () => {
    for (const format of FORMATS) {
      expect(await run(...exportArgs(SAVEPOINT, format, '/dev/full'))).toEqual({
        code: 2,
        stdout: '',
        stderr: 'savepoint-inspector export: cannot write /dev/full: no space left on device (ENOSPC)\n',
      });
    }
  });

  it('export into a folder that does not exist names the file asked for, not a temporary name', async () => {
    const target = path.join(dir, 'no-such-folder', 'x.jsonl');
    expect(await run(...exportArgs(SAVEPOINT, 'jsonl', target))).toEqual({
      code: 2,
      stdout: '',
      stderr: `savepoint-inspector export: cannot write ${target}: no such file or directory (ENOENT)\n`,
    });
  });

  it('check, compare and export-schema --output /dev/full', async () => {
    const check = await run('check', SAVEPOINT, '--no-values', '--descriptors', 'src/ui/demo-schema/events-changed.binpb', '--output', '/dev/full');
    expect([check.code, check.stdout, check.stderr]).toEqual([2, '', 'savepoint-inspector check: cannot write /dev/full: no space left on device (ENOSPC)\n']);
    const schema = await run('export-schema', SAVEPOINT, '--operator', 'int-keyed', '--state', 'last-event', '--output', '/dev/full');
    expect([schema.code, schema.stdout, schema.stderr]).toEqual([
      2,
      '',
      'savepoint-inspector export-schema: cannot write /dev/full: no space left on device (ENOSPC)\n',
    ]);
  });

  it('stdout on a full device (`inspect … > /dev/full`, a process): exit 2, no stack', () => {
    const out = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'inspect', SAVEPOINT], {
        stdio: ['ignore', out, 'pipe'],
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect([r.status, r.stderr]).toEqual([2, 'savepoint-inspector inspect: cannot write stdout: no space left on device (ENOSPC)\n']);
    } finally {
      closeSync(out);
    }
  }, 150_000);
});

describe('a value that could not be decoded fails the export in every format: exit 1, the count in the summary', () => {
  it('removes the file, names the value on stderr and leaves nothing beside it', async () => {
    for (const format of FORMATS) {
      const folder = path.join(dir, `cut-${format}`);
      const target = path.join(folder, `out.${format}`);
      mkdirSync(folder);
      const r = await run(...exportArgs(cutShort, format, target));
      expect(r).toEqual({
        code: 1,
        stdout: `${target}: 24 rows of state "processed-events" (24 entries), 1 value not decoded — the export failed: file removed (--keep-partial keeps it as <file>.partial)\n`,
        stderr: 'savepoint-inspector export: warning: processed-events: 1 value could not be decoded (exported as their bytes)\n',
      });
      expect(readdirSync(folder)).toEqual([]);
    }
  });

  it('--keep-partial keeps it as <file>.partial with the reason in the file: a last JSON line, Parquet key-value metadata', async () => {
    for (const format of FORMATS) {
      const folder = mkdtempSync(path.join(dir, `keep-${format}-`));
      const target = path.join(folder, `out.${format}`);
      const r = await run(...exportArgs(cutShort, format, target, '--keep-partial'));
      expect([r.code, r.stdout]).toEqual([
        1,
        `${target}.partial: 24 rows of state "processed-events" (24 entries), 1 value not decoded — the export failed: kept as ${target}.partial\n`,
      ]);
      expect(readdirSync(folder)).toEqual([`out.${format}.partial`]);
      const bytes = readFileSync(`${target}.partial`);
      const reason = { rows: 24, reasons: ['1 value could not be decoded (exported as their bytes)'] };
      if (format === 'jsonl') {
        const lines = bytes.toString('utf8').trimEnd().split('\n');
        expect(lines).toHaveLength(25);
        expect(JSON.parse(lines[24]!)).toEqual({ exportIncomplete: reason });
      }
      if (format === 'parquet') {
        const meta = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
        expect(meta.key_value_metadata?.find((kv) => kv.key === 'savepoint-inspector.incomplete')?.value).toBe(JSON.stringify(reason));
      }
    }
  });

  it('a complete export is renamed into place and leaves no temporary file', async () => {
    for (const format of FORMATS) {
      const folder = mkdtempSync(path.join(dir, `ok-${format}-`));
      const target = path.join(folder, `out.${format}`);
      // --quiet: no summary line on success
      const r = await run(...exportArgs(SAVEPOINT, format, target));
      expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
      expect(readdirSync(folder)).toEqual([`out.${format}`]);
      const loud = await run(...exportArgs(SAVEPOINT, format, target).filter((a) => a !== '--quiet'));
      expect([loud.code, loud.stdout, loud.stderr]).toEqual([0, `${target}: 24 rows of state "processed-events" (24 entries)\n`, '']);
      expect(readdirSync(folder)).toEqual([`out.${format}`]);
      if (format === 'parquet') {
        const bytes = readFileSync(target);
        expect(
          parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)).key_value_metadata?.some(
            (kv) => kv.key === 'savepoint-inspector.incomplete',
          ),
        ).toBe(false);
      }
    }
  });
});
