/**
 * One convention for every command (issue #33, "A CLI that behaves like the tools it sits next to"): a mistake
 * is one line with a did-you-mean, `help <command>`, `--format json` with a `schemaVersion` on every JSON
 * document (the old `--json` and `--first` kept with a deprecation note), `--output -` as stdout, `--quiet`.
 * Runs the CLI in-process on committed fixtures.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { requireCommitted } from '../../tests/helpers/committed-data';
import { COMMANDS } from './commands';
import { runCli } from './run-cli';

const SAVEPOINT = path.resolve('fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');
const DEMO_SCHEMA = path.resolve('src/ui/demo-schema/events-changed.binpb');
const CHANGES = path.resolve('fixtures/schema-changes');
const ROOT = 'fixtures.change.Order';
requireCommitted(SAVEPOINT, DEMO_SCHEMA, CHANGES);

const scratch = mkdtempSync(path.join(tmpdir(), 'spi-conventions-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string; bytes: Buffer }> {
  let stdout = '';
  let stderr = '';
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), stdoutStream: stream });
  return { code, stdout, stderr, bytes: Buffer.concat(chunks) };
}

const note = (command: string, old: string, instead: string) =>
  `savepoint-inspector ${command}: warning: ${old} is deprecated, use ${instead} (the old spelling works until the next release)\n`;

describe('a mistake is one line, with a did-you-mean and where to look', () => {
  it('an unknown option: one line naming it and the command, the closest option, a pointer to help <command>; exit 2', async () => {
    expect(await run('check', SAVEPOINT, '--descriptors', DEMO_SCHEMA, '--ouput', 'x')).toMatchObject({
      code: 2,
      stdout: '',
      stderr: "savepoint-inspector: unknown option '--ouput' for 'check'; did you mean '--output'?\nRun 'savepoint-inspector help check' for its options.\n",
    });
    expect((await run('inspect', '--zzz', SAVEPOINT)).stderr).toBe(
      "savepoint-inspector: unknown option '--zzz' for 'inspect'\nRun 'savepoint-inspector help inspect' for its options.\n",
    );
    expect((await run('inspect', SAVEPOINT, '--format')).stderr).toBe(
      "savepoint-inspector inspect: option '--format' needs a value\nRun 'savepoint-inspector help inspect' for its options.\n",
    );
  });

  it('a mistyped command: the closest command, exit 2, no page of usage', async () => {
    expect(await run('chekc', SAVEPOINT)).toMatchObject({
      code: 2,
      stdout: '',
      stderr: "savepoint-inspector: unknown command 'chekc'; did you mean 'check'?\nRun 'savepoint-inspector help' for the commands.\n",
    });
    expect((await run('exprot')).stderr).toContain("did you mean 'export'?");
    expect((await run('frobnicate')).stderr).toBe("savepoint-inspector: unknown command 'frobnicate'\nRun 'savepoint-inspector help' for the commands.\n");
  });

  it("help <command> prints that command's help, as <command> --help does; help alone the command list", async () => {
    for (const command of COMMANDS) {
      const help = await run('help', command.name);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: savepoint-inspector ${command.name}\\b`));
      expect(help.stdout).toMatch(/\n {2}-q, --quiet +\S/);
      expect(await run(command.name, '--help')).toEqual(help);
    }
    expect((await run('help')).stdout).toContain('Usage: savepoint-inspector <command> [options]');
    expect((await run('help', 'chek')).stderr).toContain("unknown command 'chek'; did you mean 'check'?");
  });
});

describe('--format json everywhere, one schemaVersion on every JSON document', () => {
  const documents: [string, string[]][] = [
    ['inspect', ['inspect', SAVEPOINT]],
    ['dump', ['dump', SAVEPOINT, '--operator', 'int-keyed', '--state', 'last-event', '--limit', '1']],
    ['stats', ['stats', SAVEPOINT, '--workers', '1', '--limit', '2']],
    ['migration-plan', ['migration-plan', SAVEPOINT, '--descriptors', DEMO_SCHEMA]],
    ['check', ['check', SAVEPOINT, '--descriptors', DEMO_SCHEMA, '--no-values']],
    ['compare', ['compare', `${CHANGES}/field-added/new.binpb`, '--against', `${CHANGES}/field-added/old.binpb`, '--root', ROOT]],
    ['export-schema', ['export-schema', SAVEPOINT]],
  ];

  it.each(documents)('%s --format json: an object whose first key is schemaVersion 1', async (_name, argv) => {
    const r = await run(...argv, '--format', 'json');
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(doc)[0]).toBe('schemaVersion');
    expect(doc['schemaVersion']).toBe(1);
  });

  it('the old --json is --format json with a deprecation note on stderr (export-schema: its bare array, for one release)', async () => {
    for (const [name, argv] of documents.filter(([n]) => !['check', 'compare', 'export-schema'].includes(n))) {
      const old = await run(...argv, '--json');
      const now = await run(...argv, '--format', 'json');
      expect([old.code, old.stdout, old.stderr]).toEqual([now.code, now.stdout, note(name, '--json', '--format json')]);
    }
    const list = await run('export-schema', SAVEPOINT, '--json');
    expect(Array.isArray(JSON.parse(list.stdout))).toBe(true);
    expect(JSON.parse(list.stdout)).toEqual((JSON.parse((await run('export-schema', SAVEPOINT, '--format', 'json')).stdout) as { schemas: unknown }).schemas);
    expect((await run('inspect', SAVEPOINT, '--json', '--format', 'text')).stderr).toContain('--json is --format json: give one of them');
  });

  it("inspect's document keeps its old documentVersion beside schemaVersion for one release", async () => {
    const doc = JSON.parse((await run('inspect', SAVEPOINT, '--format', 'json')).stdout) as Record<string, unknown>;
    expect(Object.keys(doc).slice(0, 2)).toEqual(['schemaVersion', 'documentVersion']);
  });
});

describe('--limit is the first-N option everywhere; --first is its old spelling', () => {
  it('stats and export take --limit, and --first with a deprecation note', async () => {
    const stats = await run('stats', SAVEPOINT, '--workers', '1', '--limit', '1');
    expect(stats.code).toBe(0);
    expect(stats.stdout).toContain('SAMPLE (first 1 entries per state)');
    expect(await run('stats', SAVEPOINT, '--workers', '1', '--first', '1')).toMatchObject({
      code: 0,
      stdout: stats.stdout,
      stderr: note('stats', '--first', '--limit'),
    });
    const exported = await run('export', SAVEPOINT, '--operator', 'int-keyed', '--state', 'last-event', '--format', 'jsonl', '--output', '-', '--limit', '1');
    expect(exported.code).toBe(0);
    expect(exported.bytes.toString('utf8').trim().split('\n')).toHaveLength(1);
    const old = await run('export', SAVEPOINT, '--operator', 'int-keyed', '--state', 'last-event', '--format', 'jsonl', '--output', '-', '--first=1');
    expect(old.bytes).toEqual(exported.bytes);
    expect(old.stderr.startsWith(note('export', '--first', '--limit'))).toBe(true);
  });
});

describe('--output - is stdout everywhere', () => {
  it('check and compare write their report to stdout, not to a file named -', async () => {
    const cwd = process.cwd();
    process.chdir(scratch);
    try {
      const plain = await run('check', SAVEPOINT, '--descriptors', DEMO_SCHEMA, '--no-values');
      const dash = await run('check', SAVEPOINT, '--descriptors', DEMO_SCHEMA, '--no-values', '--output', '-');
      expect([dash.code, dash.stdout]).toEqual([plain.code, plain.stdout]);
      const args = ['compare', `${CHANGES}/field-added/new.binpb`, '--against', `${CHANGES}/field-added/old.binpb`, '--root', ROOT];
      expect((await run(...args, '--output', '-')).stdout).toBe((await run(...args)).stdout);
      expect(existsSync(path.join(scratch, '-'))).toBe(false);
    } finally {
      process.chdir(cwd);
    }
  });

  it("export-schema --output - writes the saved schema's bytes to stdout and its note to stderr", async () => {
    const file = path.join(scratch, 'saved.binpb');
    const toFile = await run('export-schema', SAVEPOINT, '--state', 'last-event', '--output', file);
    expect(toFile.code).toBe(0);
    const toStdout = await run('export-schema', SAVEPOINT, '--state', 'last-event', '--output', '-');
    expect(toStdout.code).toBe(0);
    expect(toStdout.bytes.equals(readFileSync(file))).toBe(true);
    expect(toStdout.stdout).toBe('');
    expect(toStdout.stderr.startsWith('wrote stdout: the saved schema of ')).toBe(true);
  });
});

describe('--quiet on every command', () => {
  it('every command takes --quiet (and -q), and says in its help what it leaves', async () => {
    for (const command of COMMANDS) expect((await run(command.name, '--quiet', '--help')).stdout).toContain(`-q, --quiet`);
  });

  it('check/compare: nothing when compatible (exit 0), the verdict and summary lines otherwise, exit by verdict', async () => {
    const ok = await run('compare', `${CHANGES}/field-added/new.binpb`, '--against', `${CHANGES}/field-added/old.binpb`, '--root', ROOT, '--quiet');
    expect(ok).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const bad = await run('compare', `${CHANGES}/field-type-changed/new.binpb`, '--against', `${CHANGES}/field-type-changed/old.binpb`, '--root', ROOT, '-q');
    expect(bad).toMatchObject({ code: 1, stdout: 'Schema compatibility: INCOMPATIBLE\n1 root message(s): 0 compatible, 1 incompatible, 0 not restorable\n' });
    const check = await run('check', SAVEPOINT, '--descriptors', DEMO_SCHEMA, '--no-values', '--quiet');
    expect(check.code).toBe(1);
    expect(check.stdout.split('\n')[0]).toBe('Verdict: NOT RESTORABLE');
    expect(check.stdout.split('\n').length).toBeLessThanOrEqual(4);
    // a machine format prints its whole document
    expect((await run('check', SAVEPOINT, '--descriptors', DEMO_SCHEMA, '--no-values', '--quiet', '--format', 'json')).stdout).toBe(
      (await run('check', SAVEPOINT, '--descriptors', DEMO_SCHEMA, '--no-values', '--format', 'json')).stdout,
    );
  });

  it('inspect: the closing line; dump: the state and the count; export-schema: the first line', async () => {
    expect(await run('inspect', SAVEPOINT, '--quiet')).toMatchObject({ code: 0, stdout: '17 of 17 states decoded fully\n' });
    expect(await run('dump', SAVEPOINT, '--operator', 'int-keyed', '--state', 'last-event', '--quiet')).toMatchObject({
      code: 0,
      stdout: 'operator int-keyed, state last-event\n5 entries\n',
    });
    const list = await run('export-schema', SAVEPOINT, '-q');
    expect(list.stdout.split('\n')).toHaveLength(2);
    expect(list.stdout).toMatch(/^\d+ Protobuf state\(s\), /);
  });
});

describe('- is stdin where a file is read; a FIFO is read like a file', () => {
  const ZIP = path.resolve('fixtures/savepoints/flink-2.3/hashmap/canonical-compressed/savepoint.zip');
  const runWithStdin = async (bytes: Buffer, ...argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), openStdin: () => Readable.from([bytes]) });
    return { code, stdout, stderr };
  };

  it('inspect - reads a savepoint archive from stdin; check --descriptors - the new schema', async () => {
    const fromFile = await run('inspect', ZIP, '--format', 'json');
    const fromStdin = await runWithStdin(readFileSync(ZIP), 'inspect', '-', '--format', 'json');
    expect(fromStdin.code).toBe(0);
    const strip = (doc: string) => ({ ...(JSON.parse(doc) as Record<string, unknown>), input: undefined });
    expect(strip(fromStdin.stdout)).toEqual(strip(fromFile.stdout));
    const check = await run('check', SAVEPOINT, '--descriptors', DEMO_SCHEMA, '--no-values', '--format', 'json');
    const piped = await runWithStdin(readFileSync(DEMO_SCHEMA), 'check', SAVEPOINT, '--descriptors', '-', '--no-values', '--format', 'json');
    expect(piped.code).toBe(check.code);
    const inputs = (doc: string) => (JSON.parse(doc) as { inputs: { sha256: string; size: number }[] }).inputs.map((i) => [i.size, i.sha256]);
    expect(inputs(piped.stdout)).toEqual(inputs(check.stdout));
    expect((await runWithStdin(readFileSync(DEMO_SCHEMA), 'check', '-', '--descriptors', '-')).stderr).toContain('only one input can be - (stdin)');
  });

  it('a process substitution (a FIFO) as --descriptors, in a real shell', () => {
    const script = `exec "${process.execPath}" --import tsx src/cli/main.ts check "${SAVEPOINT}" --descriptors <(cat "${DEMO_SCHEMA}") --no-values --quiet`;
    const r = spawnSync('bash', ['--norc', '-c', script], { encoding: 'utf8', timeout: 120_000 });
    expect([r.status, r.stderr]).toEqual([1, '']);
    expect(r.stdout.split('\n')[0]).toBe('Verdict: NOT RESTORABLE');
  });
});

describe('the text report on a terminal is wrapped to its width', () => {
  it('check and compare: lines fit the terminal (a single word wider than the room aside), the same words; piped or into a file: unwrapped', async () => {
    const onTerminal = async (argv: string[], columns: number) => {
      let stdout = '';
      const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: () => undefined, stdoutIsTTY: true, stdoutColumns: columns });
      return { code, stdout };
    };
    const words = (text: string) => text.split(/\s+/).filter((w) => w !== '');
    for (const argv of [
      ['check', SAVEPOINT, '--descriptors', DEMO_SCHEMA, '--target', '1.x'],
      ['compare', `${CHANGES}/field-type-changed/new.binpb`, '--against', `${CHANGES}/field-type-changed/old.binpb`, '--root', ROOT],
    ]) {
      const piped = await run(...argv);
      expect(Math.max(...piped.stdout.split('\n').map((l) => l.length))).toBeGreaterThan(100);
      const wrapped = await onTerminal(argv, 100);
      expect(wrapped.code).toBe(piped.code);
      for (const line of wrapped.stdout.split('\n')) if (line.length > 100) expect(line.trim()).not.toContain(' ');
      expect(words(wrapped.stdout)).toEqual(words(piped.stdout));
      const file = path.join(scratch, `${argv[0]!}-wrapped.txt`);
      await runCli([...argv, '--output', file], { stdout: () => undefined, stderr: () => undefined, stdoutIsTTY: true, stdoutColumns: 100 });
      expect(readFileSync(file, 'utf8')).toBe(piped.stdout);
    }
  });
});
