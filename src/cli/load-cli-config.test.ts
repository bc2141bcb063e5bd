/**
 * savepoint-inspector.yaml: found upward from the working directory, read with the yaml package, each
 * mistake located file:line:column (exit 2); `check` runs with it, flags override it key by key, and it
 * says which file it read.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requireCommitted } from '../../tests/helpers/committed-data';
import { findConfigFile, parseCliConfig } from './load-cli-config';
import { runCli } from './run-cli';

const SAVEPOINT = path.resolve('fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');
const DEMO_SCHEMA = path.resolve('src/ui/demo-schema/events-changed.binpb');
requireCommitted(SAVEPOINT, DEMO_SCHEMA);

const scratch = mkdtempSync(path.join(tmpdir(), 'spi-config-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const GOOD = `version: 1
check:
  target: 0.x
  newSettings:
    maxMessageSize: 1048576
    recursionLimit: 50
    deterministicSerialization: true
  root: fixtures.events.Event
  roots:
    int-keyed/last-event: fixtures.events.Event
  ignore:
    - ALIASING_RETENTION
`;

describe('the config file', () => {
  it('reads target, newSettings, root, roots and ignore', () => {
    expect(parseCliConfig(GOOD, '/r/savepoint-inspector.yaml')).toEqual({
      file: '/r/savepoint-inspector.yaml',
      check: {
        target: '0.x',
        newSettings: { maxMessageSize: 1048576, recursionLimit: 50, deterministicSerialization: true },
        root: 'fixtures.events.Event',
        roots: { 'int-keyed/last-event': 'fixtures.events.Event' },
        ignore: ['ALIASING_RETENTION'],
      },
    });
    expect(parseCliConfig('', '/r/x.yaml')).toEqual({ file: '/r/x.yaml', check: { newSettings: {}, roots: {}, ignore: [] } });
  });

  it('locates each mistake at file:line:column', () => {
    const error = (text: string) => {
      try {
        parseCliConfig(text, '/r/c.yaml');
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(error('check:\n  target: 2.x\n')).toBe('/r/c.yaml:2:11: expected target 0.x or 1.x, found 2.x');
    expect(error('check:\n  tagret: 1.x\n')).toBe('/r/c.yaml:2:3: unknown key check.tagret: expected target, newSettings, root, roots or ignore');
    expect(error('check:\n  newSettings:\n    maxMessageSize: -1\n')).toBe('/r/c.yaml:3:21: expected maxMessageSize to be a positive 32-bit integer, found -1');
    expect(error('check:\n  ignore: [FIELD_TYPE_CHANGED]\n')).toBe(
      "/r/c.yaml:2:12: FIELD_TYPE_CHANGED decides a state's verdict (rejected): only warning rules can be ignored (docs/rules.md)",
    );
    expect(error('check:\n  ignore: [NOPE]\n')).toBe("/r/c.yaml:2:12: unknown rule id 'NOPE' (docs/rules.md)");
    expect(error('check:\n  roots:\n    last-event: X\n')).toBe(
      "/r/c.yaml:3:5: expected a key OPERATOR/STATE (operator id or uid / state name), found 'last-event'",
    );
    expect(error('check: [\n')).toMatch(/^\/r\/c\.yaml:\d+:\d+: not valid YAML: /);
    expect(error('version: 2\n')).toBe('/r/c.yaml:1:10: expected version: 1');
  });

  it('is found in the working directory or the nearest folder above', async () => {
    const repo = path.join(scratch, 'repo');
    mkdirSync(path.join(repo, 'a/b'), { recursive: true });
    writeFileSync(path.join(repo, 'savepoint-inspector.yaml'), GOOD);
    expect(await findConfigFile(path.join(repo, 'a/b'))).toBe(path.join(repo, 'savepoint-inspector.yaml'));
    expect(await findConfigFile(scratch)).toBeUndefined();
  });
});

describe('check with the config file', () => {
  const check = async (cwd: string, ...argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(['check', SAVEPOINT, '--descriptors', DEMO_SCHEMA, '--format', 'json', ...argv], {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      cwd,
    });
    return { code, stdout, stderr };
  };
  type Report = { target: string; newSettings: Record<string, unknown>; summary: { warnings: number }; states: { warnings: { ruleId: string }[] }[] };

  it('runs with the file found upward, says which, and lets flags override it key by key', async () => {
    const repo = path.join(scratch, 'ci');
    mkdirSync(path.join(repo, 'jobs'), { recursive: true });
    const file = path.join(repo, 'savepoint-inspector.yaml');
    writeFileSync(file, GOOD);
    const withConfig = await check(path.join(repo, 'jobs'));
    expect(withConfig.stderr).toBe(`savepoint-inspector check: config ${file}\n`);
    const report = JSON.parse(withConfig.stdout) as Report;
    expect(report.target).toBe('0.x');
    expect(report.newSettings).toEqual({ deterministicSerialization: true, maxMessageSize: 1048576, recursionLimit: 50, largePayloadAliasing: true });
    expect(report.states.flatMap((s) => s.warnings.map((w) => w.ruleId))).not.toContain('ALIASING_RETENTION');
    const overridden = JSON.parse((await check(repo, '--target', '1.x', '--recursion-limit', '80')).stdout) as Report;
    expect([overridden.target, overridden.newSettings['recursionLimit'], overridden.newSettings['maxMessageSize']]).toEqual(['1.x', 80, 1048576]);
    const none = await check(repo, '--no-config', '--quiet');
    expect([none.stderr, (JSON.parse(none.stdout) as Report).target]).toEqual(['', '1.x']);
    const plain = JSON.parse((await check(scratch)).stdout) as Report;
    expect(plain.states.flatMap((s) => s.warnings.map((w) => w.ruleId))).toContain('ALIASING_RETENTION');
    expect(report.summary.warnings).toBeLessThan(plain.summary.warnings);
  });

  it('a bad config file is exit 2 with file:line, before anything is read', async () => {
    const repo = path.join(scratch, 'bad');
    mkdirSync(repo, { recursive: true });
    writeFileSync(path.join(repo, 'savepoint-inspector.yaml'), 'check:\n  target: 3.x\n');
    expect(await check(repo)).toEqual({
      code: 2,
      stdout: '',
      stderr: `savepoint-inspector check: ${path.join(repo, 'savepoint-inspector.yaml')}:2:11: expected target 0.x or 1.x, found 3.x\n`,
    });
  });
});
