/**
 * The GitHub Action (action.yml, composite; its step is action/run.mjs): the script run as the workflow runs
 * it — `node action/run.mjs` with the inputs as INPUT_* variables and the runner's GITHUB_OUTPUT /
 * GITHUB_STEP_SUMMARY files — over the fixture savepoint: exit codes (compatible 0, incompatible 1,
 * unusable input 2), the SARIF file always written, annotations on the .proto line when the descriptor set
 * has source info, the step outputs and the job summary; and action.yml itself: composite, each input
 * reaching the script, every action it uses pinned, and its CLI pinned to package.json's version.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildDescriptorSet } from '../conformance/build-descriptor-set';
import { requireCommitted } from '../helpers/committed-data';

const ROOT = process.cwd();
const SCRIPT = requireCommitted(path.join(ROOT, 'action/run.mjs'));
const ACTION = requireCommitted(path.join(ROOT, 'action.yml'));
const SAVEPOINT = requireCommitted(path.join(ROOT, 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint'));
const SAVED_SCHEMA = requireCommitted(path.join(ROOT, 'fixtures/kryo-savepoints/events.binpb'));
const DEMO_SCHEMA = requireCommitted(path.join(ROOT, 'src/ui/demo-schema'));
const CHANGED = requireCommitted(path.join(DEMO_SCHEMA, 'events-changed.binpb'));
const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
// the CLI of this checkout in place of `npx --yes savepoint-inspector@<version>` (the registry is not reached in tests)
const CLI = `${process.execPath} ${path.join(ROOT, 'bin/savepoint-inspector.mjs')}`;

interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  workspace: string;
}

describe('the GitHub Action', () => {
  let dir = '';
  let withSourceInfo = '';
  let runs = 0;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'action-'));
    const read = (n: string): string => readFileSync(path.join(DEMO_SCHEMA, n), 'utf8');
    withSourceInfo = path.join(dir, 'events.binpb');
    writeFileSync(
      withSourceInfo,
      await buildDescriptorSet({
        'fixtures/events.proto': read('fixtures/events.proto'),
        'fixtures/common.proto': read('fixtures/common.proto'),
        'buf.yaml': 'version: v2\n',
      }),
    );
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** `node action/run.mjs` in a fresh workspace, with only what the runner and action.yml give it */
  const runAction = (inputs: Record<string, string>): ActionRun => {
    const workspace = path.join(dir, `workspace-${runs++}`);
    spawnSync('mkdir', [workspace]);
    const output = path.join(workspace, '..', `${path.basename(workspace)}-output`);
    const summary = path.join(workspace, '..', `${path.basename(workspace)}-summary`);
    writeFileSync(output, '');
    writeFileSync(summary, '');
    const env: Record<string, string> = {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      INPUT_CLI: CLI,
      INPUT_SARIF_FILE: 'savepoint-inspector.sarif',
      INPUT_ANNOTATIONS: 'true',
    };
    for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase().replace(/-/g, '_')}`] = value;
    const r = spawnSync(process.execPath, [SCRIPT], { cwd: workspace, env, encoding: 'utf8' });
    const outputs = Object.fromEntries(
      readFileSync(output, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    return { code: r.status, stdout: r.stdout, stderr: r.stderr, outputs, summary: readFileSync(summary, 'utf8'), workspace };
  };

  it('compatible: exit 0, no error annotation (value warnings as warnings), the SARIF file, outputs and summary', () => {
    const r = runAction({ savepoint: SAVEPOINT, descriptors: SAVED_SCHEMA, target: '0.x' });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('::error'))).toEqual([]);
    expect(r.stdout).toMatch(/^::warning file=events\.binpb,title=ALIASING_RETENTION::/m);
    const sarif = path.join(r.workspace, 'savepoint-inspector.sarif');
    expect(r.outputs).toEqual({ 'exit-code': '0', 'sarif-file': sarif, verdict: 'compatible' });
    const log = JSON.parse(readFileSync(sarif, 'utf8')) as { version: string; runs: { properties: { verdict: string } }[] };
    expect([log.version, log.runs[0]!.properties.verdict]).toEqual(['2.1.0', 'compatible']);
    expect(r.summary).toMatch(/^### Savepoint Inspector: compatible \(target 0\.x\)\n/);
  }, 120_000);

  it('incompatible: exit 1, an error annotation per failing state, on the .proto line under proto-root when the set has source info', () => {
    const plain = runAction({ savepoint: SAVEPOINT, descriptors: CHANGED, target: '0.x' });
    expect(plain.code).toBe(1);
    expect(plain.outputs['verdict']).toBe('incompatible');
    const errors = plain.stdout.split('\n').filter((l) => l.startsWith('::error '));
    expect(errors.length).toBeGreaterThan(0);
    for (const line of errors) expect(line).toMatch(/^::error file=events-changed\.binpb,title=EXACT_SCHEMA_CHANGED::.+/);
    expect(existsSync(plain.outputs['sarif-file']!)).toBe(true);

    const located = runAction({ savepoint: SAVEPOINT, descriptors: withSourceInfo, target: '0.x', 'proto-root': 'src/ui/demo-schema' });
    expect(located.code).toBe(1);
    const eventLine =
      readFileSync(path.join(DEMO_SCHEMA, 'fixtures/events.proto'), 'utf8')
        .split('\n')
        .findIndex((l) => l.startsWith('message Event {')) + 1;
    const onEvent = located.stdout.split('\n').filter((l) => l.startsWith(`::error file=src/ui/demo-schema/fixtures/events.proto,line=${eventLine},`));
    expect(onEvent.length).toBeGreaterThan(0);
    // the uploaded log names the repository's file too
    const log = readFileSync(located.outputs['sarif-file']!, 'utf8');
    expect(log).toContain('"uri": "src/ui/demo-schema/fixtures/events.proto"');
  }, 120_000);

  it('format markdown: the report file too, added to the job summary', () => {
    const r = runAction({ savepoint: SAVEPOINT, descriptors: CHANGED, target: '0.x', format: 'markdown', annotations: 'false' });
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('::error');
    const report = path.join(r.workspace, 'savepoint-inspector-report.md');
    expect(r.outputs['report-file']).toBe(report);
    expect(r.summary).toContain(readFileSync(report, 'utf8'));
  }, 120_000);

  it('unusable input: exit 2, the SARIF file says why, an error annotation names the file', () => {
    const r = runAction({ savepoint: CHANGED, descriptors: CHANGED });
    expect(r.code).toBe(2);
    expect(r.outputs['exit-code']).toBe('2');
    expect(r.outputs['verdict']).toBe('error');
    const log = JSON.parse(readFileSync(r.outputs['sarif-file']!, 'utf8')) as {
      runs: { invocations: { executionSuccessful: boolean; toolExecutionNotifications: { message: { text: string } }[] }[] }[];
    };
    const [invocation] = log.runs[0]!.invocations;
    expect(invocation!.executionSuccessful).toBe(false);
    // stderr carries check's own message; the annotation repeats it
    expect(r.stderr).toContain(invocation!.toolExecutionNotifications[0]!.message.text);
    expect(r.stdout).toMatch(/^::error file=[^,]*events-changed\.binpb,title=savepoint-inspector%3A [a-z-]+::/m);
    expect(r.summary).toMatch(/^### Savepoint Inspector: the input could not be checked\n/);
    // neither job-jar nor descriptors: check's own usage error, exit 2
    expect(runAction({ savepoint: SAVEPOINT }).code).toBe(2);
  }, 120_000);

  it('action.yml: composite, every input reaches the script, actions pinned, the CLI pinned to the package version', () => {
    const action = parse(readFileSync(ACTION, 'utf8')) as {
      inputs: Record<string, { default?: string }>;
      runs: { using: string; steps: { uses?: string; run?: string; env?: Record<string, string> }[] };
    };
    expect(action.runs.using).toBe('composite');
    expect(action.inputs['cli']!.default).toBe(`npx --yes savepoint-inspector@${packageJson.version}`);
    const step = action.runs.steps.find((s) => s.run !== undefined)!;
    expect(step.run).toBe('node "$GITHUB_ACTION_PATH/action/run.mjs"');
    const passed = Object.entries(step.env!).map(([k, v]) => [k, v]);
    const script = readFileSync(SCRIPT, 'utf8');
    for (const [name, value] of passed) {
      const input = /^\$\{\{ inputs\.([a-z-]+) \}\}$/.exec(value!)?.[1];
      expect(input, name).toBeDefined();
      expect(name).toBe(`INPUT_${input!.toUpperCase().replace(/-/g, '_')}`);
      expect(script, name).toContain(`'${name!.slice('INPUT_'.length)}'`);
    }
    // the inputs the script does not read are the ones the other steps use
    const others = new Set(['upload-sarif', 'sarif-category', 'node-version']);
    for (const input of Object.keys(action.inputs)) expect(others.has(input) || passed.some(([, v]) => v === `\${{ inputs.${input} }}`), input).toBe(true);
    for (const s of action.runs.steps.filter((x) => x.uses !== undefined)) expect(s.uses, s.uses).toMatch(/@(v\d+\.\d+\.\d+|[0-9a-f]{40})$/);
    // the upload: when asked, after a failing check too, but not the results-less log of unusable input (exit 2)
    const upload = action.runs.steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@')) as { if: string; with: Record<string, string> };
    expect(upload.if).toBe(
      "${{ always() && inputs.upload-sarif == 'true' && steps.check.outputs.sarif-file != '' && (steps.check.outputs.exit-code == '0' || steps.check.outputs.exit-code == '1') }}",
    );
    expect(upload.with['sarif_file']).toBe('${{ steps.check.outputs.sarif-file }}');
  });
});
