/**
 * `check --job-jar` and `compare --job-jar` end to end, in process, over the fixture job jars and
 * savepoints: the unchanged jar restores under the 0.x exact rule (target taken from the jar's bundled
 * 0.x serializer), one added field is the expected finding under each target, and an explicit
 * json_name removed is a 0.x rejection that the protoc descriptor sets of the same .proto files
 * cannot show (the two sets are byte-identical; the report says so).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { ConstantPoolWriter, writeClassFile } from '../../src/core/jar/write-class-file';

const JARS = path.resolve('fixtures/job-jars/jars');
const jar = (name: string) => path.join(JARS, name);
const SAVEPOINT = path.resolve('fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

interface JsonReport {
  target: string;
  verdict: string;
  inputs: { role: string; name: string }[];
  newSchema: { source: string; cannotSee: string[]; jobJar?: { library?: { line: string }; targetFromJar: boolean; gencodeVersions: string[] } };
  states: {
    state: string;
    verdict: string;
    ruleSet?: string;
    firstIncompatibility: { ruleId: string; message: string } | null;
    findings: { ruleId: string; accepted: boolean; message: string }[];
    planningAid?: { verdict: string; findings: { ruleId: string; accepted: boolean; message: string }[] };
  }[];
}

describe('check --job-jar', () => {
  it('the unchanged job jar restores every Protobuf state under the exact rule; the target comes from the jar', async () => {
    for (const name of ['thin-4.36.2.jar', 'thin-3.25.9.jar', 'relocated-4.36.2.jar', 'shaded-3.25.9.jar']) {
      const r = await run(['check', SAVEPOINT, '--job-jar', jar(name), '--no-values', '--format', 'json']);
      expect([r.code, r.stderr], name).toEqual([0, '']);
      const report = JSON.parse(r.stdout) as JsonReport;
      expect(report.target).toBe('0.x');
      expect(report.newSchema.jobJar?.targetFromJar).toBe(true);
      expect(report.inputs.map((i) => i.role)).toEqual(['savepoint', 'job-jar']);
      const protobuf = report.states.filter((s) => s.ruleSet !== undefined);
      expect(protobuf.length).toBe(9);
      expect(protobuf.every((s) => s.verdict === 'compatible' && s.ruleSet === 'exact')).toBe(true);
    }
  });

  it('one added field: EXACT_SCHEMA_CHANGED under 0.x; not restorable under 1.x with FIELD_ADDED accepted in the planning aid', async () => {
    const exact = await run(['check', SAVEPOINT, '--job-jar', jar('added-field-4.36.2.jar'), '--no-values', '--format', 'json']);
    expect(exact.code).toBe(1);
    const r0 = JSON.parse(exact.stdout) as JsonReport;
    const last0 = r0.states.find((s) => s.state === 'last-event')!;
    expect(last0.firstIncompatibility).toEqual({
      ruleId: 'EXACT_SCHEMA_CHANGED',
      message: 'Normalized descriptor set differs from the saved one (0.x accepts only an identical schema): Field 17 (note) is added to fixtures.events.Event',
    });
    const directional = await run(['check', SAVEPOINT, '--job-jar', jar('added-field-4.36.2.jar'), '--no-values', '--format', 'json', '--target', '1.x']);
    expect(directional.code).toBe(1);
    const r1 = JSON.parse(directional.stdout) as JsonReport;
    expect(r1.newSchema.jobJar?.targetFromJar).toBe(false);
    const last1 = r1.states.find((s) => s.state === 'last-event')!;
    expect(last1.verdict).toBe('not-restorable');
    expect(last1.firstIncompatibility?.ruleId).toBe('TARGET_CANNOT_READ_SNAPSHOT');
    expect(last1.planningAid?.verdict).toBe('compatible');
    expect(last1.planningAid?.findings.filter((f) => f.ruleId === 'FIELD_ADDED')).toEqual([
      { ruleId: 'FIELD_ADDED', accepted: true, path: 'fixtures.events.Event.note (17)', message: 'Field 17 (note) is added to fixtures.events.Event' },
    ]);
  });

  it('a descriptor-set input says what it cannot see and recommends the jar', async () => {
    const r = await run(['check', SAVEPOINT, '--descriptors', jar('thin-4.36.2.binpb'), '--no-values', '--target', '0.x']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('new schema from a descriptor set, which cannot show an explicit json_name equal to the derived one');
    expect(r.stdout).toContain("pass the new job's jar (--job-jar)");
  });

  it('usage: --job-jar or --descriptors, not both; --with needs --job-jar', async () => {
    const both = await run(['check', SAVEPOINT, '--job-jar', jar('thin-4.36.2.jar'), '--descriptors', jar('thin-4.36.2.binpb')]);
    expect([both.code, both.stderr.split('\n')[0]]).toEqual([2, 'savepoint-inspector check: give either --job-jar or --descriptors, not both']);
    const neither = await run(['check', SAVEPOINT]);
    expect([neither.code, neither.stderr.split('\n')[0]]).toEqual([
      2,
      'savepoint-inspector check: --job-jar <new.jar> or --descriptors <new.binpb> is required',
    ]);
    const withOnly = await run(['check', SAVEPOINT, '--descriptors', jar('thin-4.36.2.binpb'), '--with', jar('wkt-shaded-4.36.2.jar')]);
    expect([withOnly.code, withOnly.stderr.split('\n')[0]]).toEqual([
      2,
      "savepoint-inspector check: --with needs --job-jar (it adds jars the job jar's classes need)",
    ]);
  });
});

describe('compare --job-jar: an explicit json_name removed', () => {
  const args = [
    'compare',
    '--job-jar',
    jar('thin-4.36.2.jar'),
    '--against',
    jar('json-name-4.36.2.jar'),
    '--root',
    'fixtures.events.Event',
    '--format',
    'json',
  ];

  it('is a 0.x rejection and FIELD_JSON_NAME_CHANGED under 1.x, read from the two jars', async () => {
    const exact = await run([...args, '--target', '0.x']);
    expect(exact.code).toBe(1);
    const r0 = JSON.parse(exact.stdout) as JsonReport;
    expect(r0.inputs.map((i) => [i.role, i.name])).toEqual([
      ['saved-job-jar', 'json-name-4.36.2.jar'],
      ['job-jar', 'thin-4.36.2.jar'],
    ]);
    expect(r0.states[0]!.firstIncompatibility).toEqual({
      ruleId: 'EXACT_SCHEMA_CHANGED',
      message:
        'Normalized descriptor set differs from the saved one (0.x accepts only an identical schema): Field 2 (name) of fixtures.events.Event changes json_name from "name" to none',
    });
    const directional = await run([...args, '--target', '1.x']);
    expect(directional.code).toBe(1);
    expect((JSON.parse(directional.stdout) as JsonReport).states[0]!.firstIncompatibility).toEqual({
      ruleId: 'FIELD_JSON_NAME_CHANGED',
      message: 'Field 2 (name) of fixtures.events.Event changes json_name from "name" to none',
    });
  });

  it('is invisible in the protoc descriptor sets of the same .proto files (byte-identical), and the report says so', async () => {
    expect(readFileSync(jar('thin-4.36.2.binpb'))).toEqual(readFileSync(jar('json-name-4.36.2.binpb')));
    const r = await run([
      'compare',
      jar('thin-4.36.2.binpb'),
      '--against',
      jar('json-name-4.36.2.binpb'),
      '--root',
      'fixtures.events.Event',
      '--format',
      'json',
      '--target',
      '0.x',
    ]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as JsonReport;
    expect(report.newSchema.source).toBe('descriptor-set');
    expect(report.newSchema.cannotSee[0]).toMatch(/^an explicit json_name equal to the derived one/);
    // a jar against the old descriptor set: the old side still cannot show it
    const mixed = JSON.parse(
      (
        await run([
          'compare',
          '--job-jar',
          jar('thin-4.36.2.jar'),
          '--against',
          jar('json-name-4.36.2.binpb'),
          '--root',
          'fixtures.events.Event',
          '--format',
          'json',
        ])
      ).stdout,
    ) as JsonReport;
    expect(mixed.newSchema.cannotSee[0]).toMatch(/^\(in the old application's descriptor set\) an explicit json_name/);
  });
});

describe("compare with two jars: what each side's jar tells", () => {
  // the old job: 4.36.2 gencode calling a relocated runtime; the new one: 3.25.9 gencode on com.google.protobuf
  const args = ['compare', '--job-jar', jar('shaded-3.25.9.jar'), '--against', jar('relocated-4.36.2.jar'), '--root', 'fixtures.events.Event'];
  interface JarFacts {
    name: string;
    gencodeVersions: string[];
    runtimePackages: { name: string; relocated: boolean }[];
    library?: { line: string };
    targetFromJar: boolean;
    artifacts: { groupId: string; artifactId: string; version: string }[];
    messages: { fullName: string; javaClass: string }[];
  }

  it('JSON: savedSchema.jobJar for the --against jar beside newSchema.jobJar, each with its own gencode, runtime, line, artifacts and Java classes', async () => {
    const r = await run([...args, '--format', 'json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { savedSchema?: { source: string; jobJar: JarFacts }; newSchema: { jobJar: JarFacts } };
    const saved = report.savedSchema!.jobJar;
    const next = report.newSchema.jobJar;
    expect(report.savedSchema!.source).toBe('job-jar');
    expect([saved.name, saved.gencodeVersions, saved.runtimePackages, saved.library?.line, saved.targetFromJar]).toEqual([
      'relocated-4.36.2.jar',
      ['4.36.2'],
      [{ name: 'dev.savepointinspector.shaded.com.google.protobuf', relocated: true }],
      '0.x',
      false,
    ]);
    expect([next.name, next.gencodeVersions, next.runtimePackages, next.library?.line, next.targetFromJar]).toEqual([
      'shaded-3.25.9.jar',
      ['3.x or older (no RuntimeVersion check)'],
      [{ name: 'com.google.protobuf', relocated: false }],
      '0.x',
      true,
    ]);
    for (const side of [saved, next]) {
      expect(side.artifacts).toContainEqual({ groupId: 'dev.savepoint-inspector', artifactId: 'job-jars', version: '0.1.0' });
      expect(side.messages).toContainEqual({ fullName: 'fixtures.events.Event', javaClass: 'dev.savepointinspector.fixtures.generated.EventMessages$Event' });
    }
    // a descriptor set as --against: no savedSchema
    const mixed = JSON.parse(
      (
        await run([
          'compare',
          '--job-jar',
          jar('thin-4.36.2.jar'),
          '--against',
          jar('thin-4.36.2.binpb'),
          '--root',
          'fixtures.events.Event',
          '--format',
          'json',
        ])
      ).stdout,
    ) as Record<string, unknown>;
    expect('savedSchema' in mixed).toBe(false);
  });

  it("text and HTML: the old jar's lines, then the new jar's", async () => {
    const text = await run(args);
    const lines = text.stdout.split('\n');
    const from = lines.findIndex((l) => l.startsWith('old schema from the job jar'));
    expect(lines.slice(from, from + 5)).toEqual([
      'old schema from the job jar relocated-4.36.2.jar: 2 embedded .proto file(s), exact as the generated classes embed them',
      'old jar protobuf-java gencode: 4.36.2; runtime: dev.savepointinspector.shaded.com.google.protobuf (relocated)',
      'old jar flink-datastream-protobuf: 0.x (snapshot class io.github.flink.gcp.protobuf.ProtobufTypeSerializerSnapshot (0.x milestones))',
      'old jar Flink bundled: no',
      'old jar bundled artifact dev.savepoint-inspector:job-jars:0.1.0',
    ]);
    expect(lines[from + 5]).toContain('old jar Java classes: fixtures.common.Detail → dev.savepointinspector.fixtures.generated.CommonMessages$Detail, ');
    expect(lines.indexOf('protobuf-java gencode: 3.x or older (no RuntimeVersion check); runtime: com.google.protobuf')).toBeGreaterThan(from + 5);
    const html = await run([...args, '--format', 'html']);
    expect(html.stdout).toContain('<li>old jar protobuf-java gencode: 4.36.2; runtime: dev.savepointinspector.shaded.com.google.protobuf (relocated)</li>');
    expect(html.stdout).toContain('<li>old jar Java classes: fixtures.common.Detail → dev.savepointinspector.fixtures.generated.CommonMessages$Detail, ');
    expect(html.stdout).toContain('<li>protobuf-java gencode: 3.x or older (no RuntimeVersion check); runtime: com.google.protobuf</li>');
  });
});

describe('check --job-jar: the state-mapping heuristic', () => {
  it('finds every saved uid and state name in the fixture job jar (its StateNames constants)', async () => {
    const r = JSON.parse((await run(['check', SAVEPOINT, '--job-jar', jar('thin-4.36.2.jar'), '--no-values', '--format', 'json'])).stdout) as {
      newSchema: { jobJar: { stateMapping: { heuristic: boolean; operatorsNotFound: unknown[]; statesNotFound: unknown[]; method: string } } };
    };
    const mapping = r.newSchema.jobJar.stateMapping;
    expect(mapping.heuristic).toBe(true);
    expect(mapping.method).toMatch(/^string constants of 1 application class\(es\) of the job jar/);
    expect([mapping.operatorsNotFound, mapping.statesNotFound]).toEqual([[], []]);
  });

  it('lists the saved operators and states a jar without their names does not claim, labelled heuristic', async () => {
    // the fixture jar with StateNames (the class holding every uid and state name) replaced by a class without strings
    const entries: Record<string, Uint8Array> = unzipSync(new Uint8Array(readFileSync(jar('thin-4.36.2.jar'))));
    entries['dev/savepointinspector/fixtures/StateNames.class'] = writeClassFile(new ConstantPoolWriter(), 'dev/savepointinspector/fixtures/StateNames', []);
    const dir = await mkdtemp(path.join(tmpdir(), 'job-jar-'));
    try {
      const stripped = path.join(dir, 'no-names.jar');
      writeFileSync(stripped, zipSync(entries));
      const r = await run(['check', SAVEPOINT, '--job-jar', stripped, '--no-values']);
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('state mapping (heuristic: string constants of 1 application class(es) of the job jar');
      expect(r.stdout).toContain('  operator int-keyed not found in the jar: its state needs --allowNonRestoredState, and Flink drops it');
      expect(r.stdout).toContain('  operator string-keyed not found in the jar: its state needs --allowNonRestoredState, and Flink drops it');
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it('with no application class scanned, says that no mapping was possible, never a drop', async () => {
    // the fixture jar without StateNames: 0 application classes are left to read
    const entries = unzipSync(new Uint8Array(readFileSync(jar('thin-4.36.2.jar'))));
    delete entries['dev/savepointinspector/fixtures/StateNames.class'];
    const dir = await mkdtemp(path.join(tmpdir(), 'job-jar-'));
    try {
      const stripped = path.join(dir, 'no-classes.jar');
      writeFileSync(stripped, zipSync(entries));
      const r = await run(['check', SAVEPOINT, '--job-jar', stripped, '--no-values']);
      expect(r.stderr).toBe('');
      const lines = r.stdout.split('\n');
      const at = lines.findIndex((l) => l.startsWith('state mapping (heuristic: string constants of 0 application class(es) of the job jar'));
      expect(at).toBeGreaterThan(0);
      expect(lines[at + 1]).toBe(
        '  no application class of the jar was read, so no mapping was possible: nothing here says whether Flink would drop any state',
      );
      expect(r.stdout).not.toContain('Flink drops it');
    } finally {
      await rm(dir, { recursive: true });
    }
  });
});
