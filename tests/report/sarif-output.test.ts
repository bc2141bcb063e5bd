/**
 * `check`/`compare --format sarif` over the committed fixtures, each log validated against the SARIF 2.1.0
 * JSON schema (tests/report/sarif-schema/, with Ajv's draft-04 validator and its formats): one rule per
 * rule id, each with a `helpUri` to an anchor that docs/rules.md has; results located in the new schema's
 * `.proto` file and line when its descriptor set carries source info (built here with `buf build`, as a
 * user would), else in the descriptor set; the state as the logical location; and, for unusable input
 * (exit 2), a log with an unsuccessful invocation and its notification, not an empty output.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { buildDescriptorSet } from '../conformance/build-descriptor-set';
import { requireCommitted } from '../helpers/committed-data';

const ROOT = process.cwd();
/**
 * The SARIF 2.1.0 schema as the OASIS TC published it for the standard's final text (2.1.0-rtm.5, the
 * schema json.schemastore.org serves as sarif-2.1.0-rtm.5.json), a copy of the file that the npm package
 * @microsoft/jest-sarif@1.0.0-beta.0 ships as lib/schemas/sarif-2.1.0-rtm.5.json (SHA-256 2d99159a…de4f8).
 */
const SCHEMA = requireCommitted(path.join(ROOT, 'tests/report/sarif-schema/sarif-schema-2.1.0-rtm.5.json'));
const SAVEPOINT = requireCommitted(path.join(ROOT, 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint'));
const DEMO_SCHEMA = requireCommitted(path.join(ROOT, 'src/ui/demo-schema'));
const DESCRIPTORS = requireCommitted(path.join(DEMO_SCHEMA, 'events-changed.binpb'));
const PAIR = requireCommitted(path.join(ROOT, 'fixtures/schema-changes/field-type-changed'));
const RULES_DOC = readFileSync(requireCommitted(path.join(ROOT, 'docs/rules.md')), 'utf8');

// unicodeRegExp off: the schema's `language` pattern (`…{2}]?$`, a stray bracket) is valid only as a non-Unicode RegExp
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')) as object);
const schemaErrors = (log: unknown): string[] => (validate(log) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`));

interface Region {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}
interface Location {
  physicalLocation?: { artifactLocation: { uri: string }; region?: Region };
  logicalLocations: { name: string; fullyQualifiedName: string; kind: string }[];
}
interface Log {
  runs: {
    tool: { driver: { rules?: { id: string; helpUri: string }[] } };
    invocations: {
      executionSuccessful: boolean;
      exitCode?: number;
      toolExecutionNotifications?: {
        level: string;
        descriptor: { id: string };
        message: { text: string };
        locations?: { physicalLocation: { artifactLocation: { uri: string }; region?: { byteOffset: number } } }[];
      }[];
    }[];
    results?: { ruleId: string; level: string; message: { text: string }; locations: Location[] }[];
  }[];
}

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

/** 1-based line of the first line of `file` that contains `text` */
function lineOf(file: string, text: string): number {
  const at = readFileSync(file, 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(text));
  expect(at, text).toBeGreaterThanOrEqual(0);
  return at + 1;
}

/** the rule's anchor in docs/rules.md: an `<a id="…">` the helpUri's fragment names */
function expectDocumented(log: Log): void {
  const rules = log.runs[0]!.tool.driver.rules!;
  expect(rules.length).toBeGreaterThan(0);
  expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
  for (const rule of rules) {
    const url = new URL(rule.helpUri);
    expect(url.pathname, rule.id).toMatch(/\/docs\/rules\.md$/);
    expect(url.hash, rule.id).toBe(`#${rule.id}`);
    expect(RULES_DOC, rule.id).toContain(`<a id="${rule.id}"></a>`);
  }
}

describe('SARIF 2.1.0 output, validated against the published schema', () => {
  let dir = '';
  let withSourceInfo = '';
  let newWithSourceInfo = '';
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sarif-output-'));
    // the demo schema's .proto files and the field-type-changed case's new side, with source info (buf's default)
    const read = (folder: string, names: string[]): Record<string, string> =>
      Object.fromEntries(names.map((n) => [n, readFileSync(path.join(folder, n), 'utf8')]));
    withSourceInfo = path.join(dir, 'events-with-source-info.binpb');
    writeFileSync(
      withSourceInfo,
      await buildDescriptorSet({ ...read(DEMO_SCHEMA, ['fixtures/events.proto', 'fixtures/common.proto']), 'buf.yaml': 'version: v2\n' }),
    );
    newWithSourceInfo = path.join(dir, 'order-with-source-info.binpb');
    writeFileSync(newWithSourceInfo, await buildDescriptorSet({ ...read(path.join(PAIR, 'new'), ['order.proto']), 'buf.yaml': 'version: v2\n' }));
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the validator rejects what the schema forbids (a wrong level, a result without a message)', () => {
    const log = {
      version: '2.1.0',
      runs: [{ tool: { driver: { name: 't' } }, results: [{ ruleId: 'R', level: 'fatal', message: { text: 'x' } }, { ruleId: 'R' }] }],
    };
    expect(schemaErrors(log)).toEqual(
      expect.arrayContaining(['/runs/0/results/0/level must be equal to one of the allowed values', "/runs/0/results/1 must have required property 'message'"]),
    );
  });

  it('check, a descriptor set without source info: valid, each rule documented, located in the descriptor set, the state as logical location', async () => {
    for (const target of ['0.x', '1.x']) {
      const { code, stdout, stderr } = await cli(['check', SAVEPOINT, '--descriptors', DESCRIPTORS, '--target', target, '--format', 'sarif']);
      expect([code, stderr]).toEqual([1, '']);
      const log = JSON.parse(stdout) as Log;
      expect(schemaErrors(log)).toEqual([]);
      expectDocumented(log);
      expect(log.runs[0]!.invocations).toEqual([{ executionSuccessful: true }]);
      const results = log.runs[0]!.results!;
      expect(results.length).toBeGreaterThan(0);
      for (const r of results) {
        expect(r.locations[0]!.physicalLocation).toEqual({ artifactLocation: { uri: 'events-changed.binpb' } });
        expect(r.locations[0]!.logicalLocations[0]!.fullyQualifiedName).toMatch(/^[^/]+\/.+\/[A-Z_]+(\/.*)?$/);
      }
    }
  }, 120_000);

  it('check with a job jar: valid, located in the jar (its embedded descriptors carry no source info)', async () => {
    const jar = requireCommitted(path.join(ROOT, 'fixtures/job-jars/jars/added-field-4.36.2.jar'));
    const { code, stdout } = await cli(['check', SAVEPOINT, '--job-jar', jar, '--target', '1.x', '--format', 'sarif', '--no-values']);
    expect(code).toBe(1);
    const log = JSON.parse(stdout) as Log;
    expect(schemaErrors(log)).toEqual([]);
    expectDocumented(log);
    const uris = new Set(log.runs[0]!.results!.map((r) => r.locations[0]!.physicalLocation?.artifactLocation.uri));
    expect([...uris]).toEqual(['added-field-4.36.2.jar']);
  }, 120_000);

  it('check, a descriptor set with source info: results on the .proto line of the declaration they name', async () => {
    const events = path.join(DEMO_SCHEMA, 'fixtures/events.proto');
    const { code, stdout } = await cli(['check', SAVEPOINT, '--descriptors', withSourceInfo, '--target', '0.x', '--format', 'sarif']);
    expect(code).toBe(1);
    const log = JSON.parse(stdout) as Log;
    expect(schemaErrors(log)).toEqual([]);
    expectDocumented(log);
    const results = log.runs[0]!.results!;
    // the saved values' unknown field 100, which the new schema declares: on the line of `legacy_score = 100`
    const unknown100 = results.filter((r) => r.ruleId === 'UNKNOWN_NUMBER_BECOMES_FIELD' && r.message.text.includes('unknown field 100'));
    expect(unknown100.length).toBeGreaterThan(0);
    for (const r of unknown100) {
      expect(r.locations[0]!.physicalLocation!.artifactLocation.uri).toBe('fixtures/events.proto');
      expect(r.locations[0]!.physicalLocation!.region).toMatchObject({ startLine: lineOf(events, 'legacy_score = 100'), startColumn: 3 });
    }
    // a state's verdict (0.x: the exact rule) on its new root message's declaration
    const exact = results.filter(
      (r) => r.ruleId === 'EXACT_SCHEMA_CHANGED' && r.locations[0]!.logicalLocations[0]!.fullyQualifiedName.includes('/last-event/'),
    );
    expect(exact.length).toBeGreaterThan(0);
    for (const r of exact)
      expect(r.locations[0]!.physicalLocation).toMatchObject({
        artifactLocation: { uri: 'fixtures/events.proto' },
        region: { startLine: lineOf(events, 'message Event {'), startColumn: 1 },
      });
  }, 120_000);

  it('compare with source info: the changed field on its line of the new .proto; without: the new descriptor set', async () => {
    const args = (next: string): string[] => [
      'compare',
      next,
      '--against',
      path.join(PAIR, 'old.binpb'),
      '--root',
      'fixtures.change.Order',
      '--format',
      'sarif',
    ];
    const located = await cli(args(newWithSourceInfo));
    expect(located.code).toBe(1);
    const log = JSON.parse(located.stdout) as Log;
    expect(schemaErrors(log)).toEqual([]);
    expectDocumented(log);
    const changed = log.runs[0]!.results!.filter((r) => r.ruleId === 'FIELD_TYPE_CHANGED');
    expect(changed).toHaveLength(1);
    const line = lineOf(path.join(PAIR, 'new/order.proto'), 'int64 id = 1;');
    expect(changed[0]!.locations).toEqual([
      {
        physicalLocation: {
          artifactLocation: { uri: 'order.proto' },
          region: { startLine: line, startColumn: 3, endLine: line, endColumn: 3 + 'int64 id = 1;'.length },
        },
        logicalLocations: [{ name: 'fixtures.change.Order.id (1)', fullyQualifiedName: 'fixtures.change.Order/fixtures.change.Order.id (1)', kind: 'member' }],
      },
    ]);
    const plain = JSON.parse((await cli(args(path.join(PAIR, 'new.binpb')))).stdout) as Log;
    expect(schemaErrors(plain)).toEqual([]);
    expect(plain.runs[0]!.results!.map((r) => r.locations[0]!.physicalLocation)).toEqual(
      plain.runs[0]!.results!.map(() => ({ artifactLocation: { uri: 'new.binpb' } })),
    );
  }, 120_000);

  it('unusable input (exit 2): a log of an unsuccessful run with the error as its notification, on stdout or in --output', async () => {
    // a descriptor set given as the savepoint: not recognised, located in that file
    const notASavepoint = await cli(['check', DESCRIPTORS, '--descriptors', DESCRIPTORS, '--format', 'sarif']);
    expect(notASavepoint.code).toBe(2);
    const log = JSON.parse(notASavepoint.stdout) as Log;
    expect(schemaErrors(log)).toEqual([]);
    expect(log.runs[0]!.results).toBeUndefined();
    const [invocation] = log.runs[0]!.invocations;
    expect(invocation).toMatchObject({ executionSuccessful: false, exitCode: 2 });
    const [note] = invocation!.toolExecutionNotifications!;
    expect(note!.level).toBe('error');
    // the notification says what stderr says
    expect(notASavepoint.stderr).toBe(`savepoint-inspector check: ${note!.message.text}\n`);

    // a missing file, the log written to --output
    const out = path.join(dir, 'missing.sarif');
    const missing = await cli([
      'compare',
      path.join(dir, 'nope.binpb'),
      '--against',
      path.join(PAIR, 'old.binpb'),
      '--root',
      'fixtures.change.Order',
      '--format',
      'sarif',
      '--output',
      out,
    ]);
    expect([missing.code, missing.stdout]).toEqual([2, '']);
    const written = JSON.parse(readFileSync(out, 'utf8')) as Log;
    expect(schemaErrors(written)).toEqual([]);
    expect(written.runs[0]!.invocations[0]!.toolExecutionNotifications![0]!.message.text).toContain('nope.binpb');
    expect(missing.stderr).toContain(written.runs[0]!.invocations[0]!.toolExecutionNotifications![0]!.message.text);

    // another format writes nothing on unusable input, as before
    expect((await cli(['check', DESCRIPTORS, '--descriptors', DESCRIPTORS, '--format', 'json'])).stdout).toBe('');
  }, 120_000);
});
