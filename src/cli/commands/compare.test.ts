/** `compare` end to end, in process, on the committed schema-change fixtures' descriptor sets. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli';
import { requireCommitted } from '../../../tests/helpers/committed-data';

const CASES = path.resolve(process.cwd(), 'fixtures/schema-changes');
const set = (name: string, side: 'old' | 'new') => path.join(CASES, name, `${side}.binpb`);

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['compare', ...args], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

requireCommitted(CASES);

describe('compare CLI', () => {
  it('exit 0 for a supported change, with the accepted finding', async () => {
    const r = await run([set('field-added', 'new'), '--against', set('field-added', 'old'), '--root', 'fixtures.change.Order']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('Schema compatibility: compatible');
    // two image.binpb inputs are told apart by side, not by the JSON's role names
    expect(
      r.stdout
        .split('\n')
        .filter((l) => l.startsWith('input '))
        .map((l) => l.slice(0, l.indexOf(' ('))),
    ).toEqual(['input old descriptor set: old.binpb', 'input new descriptor set: new.binpb']);
    expect(r.stdout).toMatch(/ok {3}\[FIELD_ADDED\] Field \d+ \(\w+\) is added to fixtures\.change\.Order/);
  });

  it('exit 1 for a rename, naming it; 0.x applies the exact rule', async () => {
    const args = [set('field-renamed', 'new'), '--against', set('field-renamed', 'old'), '--root', '.fixtures.change.Order'];
    const r = await run(args);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('first incompatibility [FIELD_RENAMED]: Field 2 (note) of fixtures.change.Order is renamed to comment');
    const exact = await run([...args, '--target', '0.x']);
    expect(exact.code).toBe(1);
    expect(exact.stdout).toContain('first incompatibility [EXACT_SCHEMA_CHANGED]');
  });

  it('--root OLD=NEW follows a renamed root; the JSON report holds the inputs and the diff', async () => {
    const r = await run([
      set('root-renamed', 'new'),
      '--against',
      set('root-renamed', 'old'),
      '--root',
      'fixtures.change.Order=fixtures.change.Purchase',
      '--format',
      'json',
    ]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.subject).toBe('descriptor-sets');
    const oldBytes = await readFile(set('root-renamed', 'old'));
    expect(report.inputs[0]).toEqual({
      role: 'saved-descriptors',
      name: 'old.binpb',
      size: oldBytes.length,
      sha256: createHash('sha256').update(oldBytes).digest('hex'),
    });
    expect(report.states[0]).toMatchObject({
      state: 'fixtures.change.Order',
      savedRoot: 'fixtures.change.Order',
      newRoot: 'fixtures.change.Purchase',
      firstIncompatibility: { ruleId: 'JAVA_CLASS_CHANGED' },
    });
    expect(report.states[0].diff.savedRoot).toBe('fixtures.change.Order');
  });

  it('--output writes the report to a file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'compare-'));
    try {
      const out = path.join(dir, 'report.md');
      const r = await run([
        set('unchanged', 'new'),
        '--against',
        set('unchanged', 'old'),
        '--root',
        'fixtures.change.Order',
        '--format',
        'markdown',
        '--output',
        out,
      ]);
      expect([r.code, r.stdout]).toEqual([0, '']);
      expect((await readFile(out, 'utf8')).split('\n')[0]).toBe('# Schema compatibility: compatible');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('usage errors and unusable input exit 2 with the reason', async () => {
    const n = set('unchanged', 'new');
    const o = set('unchanged', 'old');
    const cases: [string[], string][] = [
      [['--against', o, '--root', 'a.B'], 'savepoint-inspector compare: expected the new descriptor set (or --job-jar <new.jar>)\n'],
      [[n, '--root', 'a.B'], 'savepoint-inspector compare: --against <old.binpb | old.jar> is required\n'],
      [[n, '--against', o], 'savepoint-inspector compare: --root NAME is required: the root message of the state type to compare (repeatable)\n'],
      [[n, '--against', o, '--root', 'a.B=c.D=e.F'], 'savepoint-inspector compare: --root a.B=c.D=e.F: expected NAME or OLD=NEW\n'],
      [[n, '--against', o, '--root', 'a.B', '--root', '.a.B'], 'savepoint-inspector compare: --root a.B given twice\n'],
      [[n, '--against', o, '--root', 'a.B', '--target', '2.x'], 'savepoint-inspector compare: --target must be 0.x or 1.x, found 2.x\n'],
      [[n, '--against', o, '--root', 'a.B', '--kind', 'pojo'], 'savepoint-inspector compare: --kind must be generated or dynamic, found pojo\n'],
    ];
    for (const [args, first] of cases) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.slice(0, first.length)).toBe(first);
    }
    const missing = await run([n, '--against', o, '--root', 'Order']);
    expect([missing.code, missing.stderr]).toEqual([
      2,
      'savepoint-inspector compare: The old descriptor set has no message Order (did you mean fixtures.change.Order?) — at old.binpb [descriptor set]\n',
    ]);
    const notASet = await run([path.join(CASES, 'unchanged', 'expected.json'), '--against', o, '--root', 'fixtures.change.Order']);
    expect(notASet.code).toBe(2);
    expect(notASet.stderr).toMatch(/^savepoint-inspector compare: Expected a binary FileDescriptorSet \(first byte 0x0a\), found JSON text: 7b/);
  });
});
