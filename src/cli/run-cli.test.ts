/**
 * The CLI run in-process (runCli with captured output): usage and corrupt inputs. Its runs over the
 * real savepoints in ../shared are tests/shared-savepoints/cli-inspect.test.ts.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli';

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe('runCli: usage', () => {
  it('prints help and exits 0 for --help, 2 without a command', async () => {
    const help = await run('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: savepoint-inspector <command> [options]');
    expect(help.stdout).toContain('  inspect         list operators, states, serializers and entry counts of a savepoint');
    expect(help.stdout).toContain("  export-schema   list a savepoint's saved Protobuf schemas, or write one as a descriptor set for compare");
    expect((await run()).code).toBe(2);
  });

  it('prints the package version alone for --version, -v and version, exit 0', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    for (const spelling of ['--version', '-v', 'version']) expect(await run(spelling)).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect((await run('--help')).stdout).toContain(
      "Run 'savepoint-inspector help <command>' (or '<command> --help') for a command's options, 'savepoint-inspector --version' for the version.",
    );
  });

  it('serve: a bad --port or an argument is a usage error, exit 2', async () => {
    const badPort = await run('serve', '--port', '70000');
    expect([badPort.code, badPort.stdout]).toEqual([2, '']);
    expect(
      badPort.stderr.startsWith("savepoint-inspector serve: --port expects a port number from 0 to 65535, found '70000'\n\nUsage: savepoint-inspector serve"),
    ).toBe(true);
    expect((await run('serve', '--port', '80a')).code).toBe(2);
    expect((await run('serve', 'dist')).stderr.startsWith('savepoint-inspector serve: serve takes no arguments (got dist)\n')).toBe(true);
  });

  it('rejects unknown commands, unknown options and a missing argument with exit 2 on stderr', async () => {
    const unknown = await run('frobnicate');
    expect([unknown.code, unknown.stdout]).toEqual([2, '']);
    expect(unknown.stderr.startsWith("savepoint-inspector: unknown command 'frobnicate'")).toBe(true);
    const badOption = await run('inspect', '--bogus', 'x');
    expect(badOption.code).toBe(2);
    expect(badOption.stderr).toBe("savepoint-inspector: unknown option '--bogus' for 'inspect'\nRun 'savepoint-inspector help inspect' for its options.\n");
    const missing = await run('inspect');
    expect(missing.code).toBe(2);
    expect(missing.stderr.startsWith('savepoint-inspector inspect: expected a savepoint to inspect\n')).toBe(true);
    expect((await run('inspect', '--handles', 'x')).stderr.startsWith('savepoint-inspector inspect: --handles needs --format json')).toBe(true);
  });

  it('exits 2 with the DecodeError message (file, offset, path) for a corrupt _metadata', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'spi-cli-'));
    const file = path.join(dir, '_metadata');
    // magic, version 4, checkpoint id 9, 0 master states, 1 operator: id + parallelism 5 > max parallelism 4
    const bytes = Buffer.alloc(60);
    bytes.writeUInt32BE(0x4960672d, 0);
    bytes.writeInt32BE(4, 4);
    bytes.writeBigInt64BE(9n, 8);
    bytes.writeInt32BE(1, 20);
    Buffer.from('6730ef7375fb60f9d9bbdfdfd174d803', 'hex').copy(bytes, 24);
    bytes.writeInt32BE(5, 40);
    bytes.writeInt32BE(4, 44);
    writeFileSync(file, bytes);
    const r = await run('inspect', file);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `savepoint-inspector inspect: expected 1 <= parallelism <= max parallelism <= 32768, found parallelism 5 and max parallelism 4 — at ${file}, offset 40 (0x28) [operator 6730ef73…]\n`,
    );
  });

  it('exits 2 for a path that does not exist and for a file that is not a savepoint', async () => {
    const r = await run('inspect', '/nonexistent/savepoint-x');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('savepoint-inspector inspect: no such file or directory: /nonexistent/savepoint-x\n');
    const dir = mkdtempSync(path.join(tmpdir(), 'spi-cli-'));
    writeFileSync(path.join(dir, '_metadata'), Buffer.from('{"not":"flink"}'));
    const json = await run('inspect', path.join(dir, '_metadata'));
    expect(json.code).toBe(2);
    expect(json.stderr).toContain('This looks like a JSON document, not a savepoint');
  });
});

describe('inspect: the closing line and --strict', () => {
  const fixture = (p: string) => path.resolve(__dirname, '../../fixtures/savepoints', p);

  it('says how many states were decoded fully and, with --strict, exits 1 when not all were', async () => {
    const canonical = await run('inspect', fixture('flink-1.20/rocksdb/canonical/savepoint'), '--strict');
    expect(canonical.code).toBe(0);
    expect(canonical.stdout.endsWith('\n\n17 of 17 states decoded fully\n')).toBe(true);
    // RocksDB native: the keyed states are read from their SST files
    const native = await run('inspect', fixture('flink-1.20/rocksdb/native/savepoint'), '--strict');
    expect(native.code).toBe(0);
    expect(native.stdout.endsWith('\n\n17 of 17 states decoded fully\n')).toBe(true);
    expect(native.stdout).toContain('- long-last-event  VALUE (keyed), 4 entries, subtasks 0,1\n');
    const json = await run('inspect', fixture('flink-1.20/rocksdb/native/savepoint'), '--strict', '--format', 'json');
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { summary: unknown }).summary).toEqual({
      states: 17,
      decodedFully: 17,
      partlyDecoded: 0,
      notRead: 0,
      notScanned: 0,
      streamsNotRead: 0,
    });
  });

  it('with --headers-only: states listed, not scanned; --strict fails only on what the headers show', async () => {
    const canonical = await run('inspect', fixture('flink-1.20/rocksdb/canonical/savepoint'), '--headers-only', '--strict');
    expect(canonical.code).toBe(0);
    expect(canonical.stdout.endsWith('\n\n17 states listed, entries not scanned (--headers-only)\n')).toBe(true);
    const native = await run('inspect', fixture('flink-1.20/rocksdb/native/savepoint'), '--headers-only', '--strict');
    expect(native.code).toBe(0);
    expect(native.stdout.endsWith('\n\n17 states listed, entries not scanned (--headers-only)\n')).toBe(true);
  });
});

describe('runCli: inspect --json --handles on a RocksDB native savepoint', () => {
  it('lists each file of an incremental handle: saved name, RocksDB name, size, shared or private', async () => {
    const r = await run('inspect', '--format', 'json', '--handles', path.resolve('fixtures/savepoints/flink-2.3/rocksdb/native/savepoint'));
    expect(r.code).toBe(0);
    type Handle = {
      kind: string;
      sharedFiles: number;
      privateFiles: number;
      files: { savedName: string | null; rocksdbName: string; size: number | null; shared: boolean }[];
    };
    const doc = JSON.parse(r.stdout) as { operators: { subtasks: { managedKeyedState: Handle | null }[] }[] };
    const handles = doc.operators.flatMap((o) => o.subtasks.map((s) => s.managedKeyedState)).filter((h): h is Handle => h?.kind === 'incremental');
    expect(handles.length).toBeGreaterThan(0);
    for (const h of handles) {
      expect(h.files.length).toBe(h.sharedFiles + h.privateFiles);
      expect(h.files.filter((f) => f.shared).length).toBe(h.sharedFiles);
      for (const f of h.files) {
        expect(f.savedName).toMatch(/^[0-9a-f-]{36}$/);
        expect(typeof f.size).toBe('number');
      }
    }
    expect(handles[0]!.files.map((f) => f.rocksdbName)).toContain('MANIFEST-000005');
    expect(handles.flatMap((h) => h.files.map((f) => f.rocksdbName)).some((n) => n.endsWith('.sst'))).toBe(true);
  });
});
