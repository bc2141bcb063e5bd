/**
 * The GitLab CI snippet of docs/cli.md ("### GitLab CI"): valid YAML, its JUnit report path the file its
 * `script` line writes, the CLI pinned to package.json's version; and the `script` line run as a job runs it
 * (bash, the snippet's variables pointed at the fixture savepoint and a changed schema, the CLI of this
 * checkout in place of npx) writes JUnit XML that parses: one test case per state, the failing ones failed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { requireCommitted } from '../helpers/committed-data';

const ROOT = process.cwd();
const DOC = readFileSync(requireCommitted(path.join(ROOT, 'docs/cli.md')), 'utf8');
const SAVEPOINT = requireCommitted(path.join(ROOT, 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint'));
const CHANGED = requireCommitted(path.join(ROOT, 'src/ui/demo-schema/events-changed.binpb'));
const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };

/** the first ```yaml block of the doc's section `### <title>` */
function yamlBlock(title: string): string {
  const start = DOC.indexOf(`\n### ${title}\n`);
  expect(start, title).toBeGreaterThanOrEqual(0);
  const block = /```yaml\n([\s\S]*?)```/.exec(DOC.slice(start));
  expect(block, title).not.toBeNull();
  return block![1]!;
}

interface Job {
  image: string;
  variables: Record<string, string>;
  script: string[];
  artifacts: { when: string; reports: { junit: string } };
}

describe('the GitLab CI snippet of docs/cli.md', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gitlab-snippet-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const jobs = parse(yamlBlock('GitLab CI')) as Record<string, Job>;
  const [job] = Object.values(jobs);

  it('is one job whose JUnit report is the file its script writes, kept when the job fails, with the CLI pinned', () => {
    expect(Object.keys(jobs)).toHaveLength(1);
    expect(job!.script).toHaveLength(1);
    const line = job!.script[0]!;
    expect(line.startsWith(`npx --yes savepoint-inspector@${packageJson.version} check `)).toBe(true);
    expect(line).toContain(' --format junit ');
    expect(line.endsWith(` --output ${job!.artifacts.reports.junit}`)).toBe(true);
    expect(job!.artifacts.when).toBe('always');
    expect(job!.image).toMatch(/^node:\d+\.\d+\.\d+-/);
  });

  it('its script line writes JUnit XML that parses: one test case per state, the incompatible ones failed', () => {
    const line = job!.script[0]!.replace(
      `npx --yes savepoint-inspector@${packageJson.version}`,
      `"${process.execPath}" "${path.join(ROOT, 'bin/savepoint-inspector.mjs')}"`,
    );
    const r = spawnSync('bash', ['-c', line], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...job!.variables, SAVEPOINT, NEW_DESCRIPTORS: CHANGED } });
    // the demo schema changes a type: the 1.x target (default) cannot read the saved 0.x snapshots, so every Protobuf state fails
    expect([r.status, r.stderr]).toEqual([1, '']);
    const xml = readFileSync(path.join(dir, job!.artifacts.reports.junit), 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml) as {
      testsuites: { testsuite: { tests: string; failures: string; testcase: { failure?: unknown }[] } };
    };
    const suite = doc.testsuites.testsuite;
    expect(suite.testcase).toHaveLength(Number(suite.tests));
    expect(suite.testcase.filter((c) => c.failure !== undefined)).toHaveLength(Number(suite.failures));
    expect(Number(suite.failures)).toBeGreaterThan(0);
  }, 120_000);
});
