/**
 * `check` end to end, in process, on the committed Flink 2.3 savepoint with Protobuf state
 * (fixtures/savepoints/flink-2.3/hashmap/canonical, written in the 0.1.0 format) against new
 * descriptor sets that buf builds from the fixture's own .proto files, edited per case.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli';
import { buildDescriptorSet } from '../../../tests/conformance/build-descriptor-set';
import { requireCommitted } from '../../../tests/helpers/committed-data';

const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');
const PROTO_DIR = path.resolve(process.cwd(), 'fixtures/flink-writer/src/main/proto');

let dir = '';
const sets: Record<string, string> = {};

async function protoFiles(edit: (events: string) => string = (s) => s): Promise<Record<string, string>> {
  const events = await readFile(path.join(PROTO_DIR, 'fixtures/events.proto'), 'utf8');
  const common = await readFile(path.join(PROTO_DIR, 'fixtures/common.proto'), 'utf8');
  return { 'fixtures/events.proto': edit(events), 'fixtures/common.proto': common };
}

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['check', ...args], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

requireCommitted(SAVEPOINT, PROTO_DIR);

describe('check CLI on a savepoint with Protobuf state', () => {
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'compat-check-'));
    const write = async (name: string, files: Record<string, string>) => {
      sets[name] = path.join(dir, `${name}.binpb`);
      await writeFile(sets[name], await buildDescriptorSet(files));
    };
    await write('same', await protoFiles());
    await write('added100', await protoFiles((s) => s.replace('  double score = 16;', '  double score = 16;\n  int64 added = 100;')));
    await write('sint', await protoFiles((s) => s.replace('  int64 id = 1;', '  sint64 id = 1;')));
    await write('noRule', await protoFiles((s) => s.replace(/\nmessage Rule \{[^}]*\}\n/, '\n')));
    await writeFile(path.join(dir, 'event.proto'), 'syntax = "proto3";\nmessage A {}\n');
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('unchanged schema, target 0.x: exit 0 and a compatible JSON report', async () => {
    const r = await run([SAVEPOINT, '--descriptors', sets.same!, '--target', '0.x', '--format', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.verdict).toBe('compatible');
    expect(report.summary).toMatchObject({ protobufStates: 9, compatible: 9, incompatible: 0, notRestorable: 0 });
    const state = report.states.find((s: { state: string }) => s.state === 'processed-events');
    expect(state).toMatchObject({
      operatorUid: 'int-keyed',
      verdict: 'compatible',
      firstIncompatibility: null,
      ruleSet: 'exact',
      savedRoot: 'fixtures.events.Event',
    });
    expect(report.inputs.map((i: { role: string; name: string }) => [i.role, i.name])).toEqual([
      ['savepoint', 'savepoint'],
      ['descriptors', 'same.binpb'],
    ]);
    expect(report.inputs[1].sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('identical input gives byte-identical JSON', async () => {
    const a = await run([SAVEPOINT, '--descriptors', sets.sint!, '--format', 'json']);
    const b = await run([SAVEPOINT, '--descriptors', sets.sint!, '--format', 'json']);
    expect(a.stdout).toBe(b.stdout);
  });

  it('an added field whose number saved values carry as unknown: UNKNOWN_NUMBER_BECOMES_FIELD with count and keys', async () => {
    const r = await run([SAVEPOINT, '--descriptors', sets.added100!, '--target', '1.x', '--format', 'json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.verdict).toBe('not-restorable');
    const state = report.states.find((s: { state: string }) => s.state === 'processed-events');
    expect(state.verdict).toBe('not-restorable');
    expect(state.firstIncompatibility.ruleId).toBe('TARGET_CANNOT_READ_SNAPSHOT');
    expect(state.planningAid.verdict).toBe('compatible');
    expect(state.planningAid.findings.map((f: { ruleId: string }) => f.ruleId)).toContain('FIELD_ADDED');
    const warning = state.warnings.find((w: { ruleId: string }) => w.ruleId === 'UNKNOWN_NUMBER_BECOMES_FIELD');
    expect(warning.count).toBe(24);
    expect(warning.message).toBe(
      '24 saved value(s) carry unknown field 100 in fixtures.events.Event, which the new schema declares as added: the new parser reads the retained bytes as that field',
    );
    expect(warning.keys.length).toBe(20);
  });

  it('a type change: 0.x exact rule and the 1.x planning aid name it; exit 1', async () => {
    const exact = await run([SAVEPOINT, '--descriptors', sets.sint!, '--target', '0.x', '--format', 'json', '--no-values']);
    expect(exact.code).toBe(1);
    const s0 = JSON.parse(exact.stdout).states.find((s: { state: string }) => s.state === 'last-event');
    expect(s0.firstIncompatibility).toEqual({
      ruleId: 'EXACT_SCHEMA_CHANGED',
      message:
        'Normalized descriptor set differs from the saved one (0.x accepts only an identical schema): Field 1 (id) of fixtures.events.Event changes type from INT64 to SINT64',
    });
    expect(s0.failureText).toBe(
      // 0.x: restoreSerializer of the saved snapshot requires the saved schema
      "Cannot restore Protobuf serializer for dev.savepointinspector.fixtures.generated.EventMessages$Event (fixtures.events.Event): supply a supported generated class with the saved schema through Flink's user-code classloader. Cause: Generated class has a different Protobuf schema",
    );
    const directional = await run([SAVEPOINT, '--descriptors', sets.sint!, '--format', 'json', '--no-values']);
    const s1 = JSON.parse(directional.stdout).states.find((s: { state: string }) => s.state === 'last-event');
    expect(s1.planningAid.firstIncompatibility).toEqual({
      ruleId: 'FIELD_TYPE_CHANGED',
      message: 'Field 1 (id) of fixtures.events.Event changes type from INT64 to SINT64',
    });
  });

  it('renders every format, and --output writes the file', async () => {
    const args = [SAVEPOINT, '--descriptors', sets.sint!, '--target', '0.x'];
    const text = await run([...args]);
    expect(text.code).toBe(1);
    expect(text.stdout.split('\n')[0]).toBe('Verdict: INCOMPATIBLE');
    const md = await run([...args, '--format', 'markdown']);
    expect(md.stdout.startsWith('# Savepoint compatibility: INCOMPATIBLE\n')).toBe(true);
    expect(md.stdout).toContain('| int-keyed (6d821971c3bfd7ae2c972e89d7414f7c) / last-event | INCOMPATIBLE |');
    const html = await run([...args, '--format', 'html']);
    expect(html.stdout).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';`);
    expect(html.stdout).not.toMatch(/<script/i);
    expect(html.stdout).toContain('EventMessages$Event');
    const junit = await run([...args, '--format', 'junit']);
    expect(junit.stdout).toContain('<testsuites name="savepoint compatibility" tests="17" failures="9" errors="0" skipped="8">');
    expect(junit.stdout).toContain('<testcase classname="int-keyed" name="last-event (VALUE_SERIALIZER)">');
    const gh = await run([...args, '--format', 'github']);
    const lines = gh.stdout.trimEnd().split('\n');
    expect(lines.every((l) => l.startsWith('::error ') || l.startsWith('::warning ') || l.startsWith('::notice '))).toBe(true);
    expect(lines.filter((l) => l.startsWith('::error ')).length).toBe(9);
    const out = path.join(dir, 'report.html');
    const written = await run([...args, '--format', 'html', '--output', out]);
    expect(written.stdout).toBe('');
    expect(await readFile(out, 'utf8')).toBe(html.stdout);
  });

  it('--kind dynamic and --root OP/STATE=NAME pick the new type per state', async () => {
    const r = await run([
      SAVEPOINT,
      '--descriptors',
      sets.same!,
      '--target',
      '0.x',
      '--format',
      'json',
      '--no-values',
      '--kind',
      'dynamic',
      '--root',
      'int-keyed/last-event=fixtures.events.Rule',
    ]);
    expect(r.code).toBe(1);
    const states = JSON.parse(r.stdout).states;
    const last = states.find((s: { state: string }) => s.state === 'last-event');
    expect(last.newRoot).toBe('fixtures.events.Rule');
    expect(last.findings.map((f: { ruleId: string }) => f.ruleId).slice(0, 2)).toEqual(['TYPE_KIND_CHANGED', 'ROOT_RENAMED']);
    const other = states.find((s: { state: string }) => s.state === 'processed-events');
    expect(other.newRoot).toBe('fixtures.events.Event');
    expect(other.firstIncompatibility.message).toBe('Saved generated state cannot be restored as dynamic');
  });

  it("a new set without one state's root: that state is incompatible (NEW_ROOT_MISSING), the others get their own verdicts, exit 1", async () => {
    const r = await run([SAVEPOINT, '--descriptors', sets.noRule!, '--target', '0.x', '--format', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    const rules = report.states.find((s: { state: string }) => s.state === 'rules');
    expect(rules).toMatchObject({
      verdict: 'incompatible',
      newRoot: 'fixtures.events.Rule',
      firstIncompatibility: { ruleId: 'NEW_ROOT_MISSING', message: 'The new schema has no message fixtures.events.Rule' },
    });
    expect(rules.failureText).toBeUndefined();
    expect(rules.valuesNotRead).toBe('the new schema has no message fixtures.events.Rule to compare them with');
    // Event is unchanged, but its file lost a declaration: the exact rule decides the other states one by one
    const others = report.states.filter((s: { state: string; ruleSet?: string }) => s.ruleSet !== undefined && s.state !== 'rules');
    expect(others.length).toBe(8);
    for (const s of others) expect(s.firstIncompatibility?.ruleId).not.toBe('NEW_ROOT_MISSING');
    const directional = await run([SAVEPOINT, '--descriptors', sets.noRule!, '--target', '1.x', '--format', 'text', '--no-values']);
    expect(directional.code).toBe(1);
    expect(directional.stdout).toContain('The new schema has no message fixtures.events.Rule');
    // a --root that no state's type has: each state gets the finding, still exit 1 (a verdict, not unusable input)
    const noRoot = await run([
      SAVEPOINT,
      '--descriptors',
      sets.same!,
      '--target',
      '0.x',
      '--root',
      'fixtures.events.Missing',
      '--format',
      'json',
      '--no-values',
    ]);
    expect(noRoot.code).toBe(1);
    const all = JSON.parse(noRoot.stdout).states.filter((s: { ruleSet?: string }) => s.ruleSet !== undefined);
    expect(all.map((s: { firstIncompatibility: { message: string } | null }) => s.firstIncompatibility?.message)).toEqual(
      Array(9).fill('The new schema has no message fixtures.events.Missing'),
    );
  });

  it('unusable input exits 2 with the reason on stderr', async () => {
    const notSet = await run([SAVEPOINT, '--descriptors', path.join(dir, 'event.proto')]);
    expect(notSet.code).toBe(2);
    expect(notSet.stderr).toContain('Expected a binary FileDescriptorSet (first byte 0x0a), found Protobuf source text');
    const usage = await run([SAVEPOINT]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--descriptors <new.binpb> is required');
    const badTarget = await run([SAVEPOINT, '--descriptors', sets.same!, '--target', '2.x']);
    expect(badTarget.code).toBe(2);
  });
});

describe('check on an input holding several savepoints', () => {
  const ALL = path.resolve(process.cwd(), 'fixtures/savepoints');
  const JAR = path.resolve(process.cwd(), 'fixtures/job-jars/jars/thin-4.36.2.jar');

  it('refuses it (exit 2, the candidates listed, no report), never checking one silently', async () => {
    const r = await run([ALL, '--job-jar', JAR, '--format', 'json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `savepoint-inspector check: expected one savepoint in ${ALL}, found 14 _metadata files: ` +
        ['1.20', '2.3']
          .flatMap((v) =>
            [
              'hashmap/canonical-compressed',
              'hashmap/canonical-inline',
              'hashmap/canonical',
              'hashmap/native',
              'rocksdb/canonical-compressed',
              'rocksdb/canonical',
              'rocksdb/native',
            ].map((s) => `'flink-${v}/${s}/savepoint/_metadata'`),
          )
          .join(', ') +
        '; name the one to read with --metadata PATH (one of these), or point at its folder\n',
    );
  });

  it('--metadata names the one to check', async () => {
    const r = await run([ALL, '--metadata', 'flink-2.3/hashmap/canonical/savepoint', '--job-jar', JAR, '--no-values']);
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n')[0]).toBe('Verdict: compatible');
    expect(r.code).toBe(0);
    const wrong = await run([ALL, '--metadata', 'flink-2.3', '--job-jar', JAR]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(
      /^savepoint-inspector check: expected a savepoint at 'flink-2\.3' in .*, found _metadata only at 'flink-1\.20\/hashmap\/canonical-compressed\/savepoint\/_metadata', /,
    );
  });
});

describe('check never passes, nor reads "compatible", on state it could not check', () => {
  const JAR = path.resolve(process.cwd(), 'fixtures/job-jars/jars/thin-4.36.2.jar');
  let tmp = '';
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(tmpdir(), 'check-unchecked-'));
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  async function copyWith(name: string, change: (dir: string) => Promise<void>): Promise<string> {
    const dir = path.join(tmp, name);
    await cp(SAVEPOINT, dir, { recursive: true });
    await change(dir);
    return dir;
  }

  it('a missing state file: a report (values not read), "Verdict: unknown", exit 1', async () => {
    const dir = await copyWith('missing', (d) => rm(path.join(d, '202064af-f4f4-47cc-b32e-710158e42e1a')));
    const r = await run([dir, '--job-jar', JAR]);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('Verdict: unknown');
    expect(lines[2]).toBe(
      'Not checked, so the verdict cannot be compatible (check exits 1): the saved values of 5 Protobuf states were not read (each state says why), so their value warnings were not checked.',
    );
  });

  it('a state file whose header is broken: its states are not known to be free of Protobuf, so exit 1 (it was 0)', async () => {
    const victim = '4d57ec4a-0fb7-47bf-9ff2-648652bf07dc';
    const dir = await copyWith('broken-header', async (d) => {
      const bytes = await readFile(path.join(d, victim));
      for (let i = 0; i < 60; i++) bytes[i] = bytes[i]! ^ 0xa5;
      await writeFile(path.join(d, victim), bytes);
    });
    const r = await run([dir, '--job-jar', JAR, '--format', 'json']);
    const report = JSON.parse(r.stdout) as { verdict: string; summary: { headersNotRead?: number }; notChecked?: string[] };
    expect(report.verdict).toBe('unknown');
    expect(report.summary.headersNotRead).toBe(2);
    expect(report.notChecked).toEqual(['the header of 2 states could not be read, so whether they hold Protobuf is not known']);
    expect(r.code).toBe(1);
  });
});
