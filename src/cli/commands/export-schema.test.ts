/**
 * `export-schema` on the committed Flink savepoints with Protobuf state, and the workflow it serves:
 * `compare` of a new schema against the exported saved schema gives, per state, the findings `check`
 * gives against the savepoint itself (0.x: the exact rule; 1.x: check's planning aid, the directional
 * rules for this 0.x snapshot) — all but the reader-settings findings, which come from the snapshot
 * (compare assumes the defaults; the fixtures' `rules` state was saved with others).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli';
import { writeKeyedByProtobufSavepoint } from '../../../tests/helpers/write-keyed-by-protobuf-savepoint';
import { requireCommitted } from '../../../tests/helpers/committed-data';

const SAVEPOINTS = ['flink-2.3/hashmap/canonical', 'flink-1.20/rocksdb/canonical'].map((p) =>
  path.resolve(process.cwd(), 'fixtures/savepoints', p, 'savepoint'),
);
const NEW_SCHEMA = path.resolve(process.cwd(), 'src/ui/demo-schema/events-changed.binpb');

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

interface Listed {
  operator: string;
  operatorUid?: string;
  state: string;
  role: string;
  root: string;
  javaClass: string;
  settings: { deterministicSerialization: boolean; maxMessageSize: number; recursionLimit: number };
  size: number;
  sha256: string;
}
interface Finding {
  path: string;
}
interface ReportState {
  operator: string;
  state: string;
  role: string;
  findings: Finding[];
  planningAid?: { findings: Finding[] };
  savedJavaClass?: string;
}

requireCommitted(NEW_SCHEMA, ...SAVEPOINTS);

describe('export-schema', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'export-schema-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists every Protobuf state with its root and saved schema, and writes that schema byte for byte', async () => {
    const listed = await run(['export-schema', SAVEPOINTS[0]!, '--format', 'json']);
    expect([listed.code, listed.stderr]).toEqual([0, '']);
    const states = (JSON.parse(listed.stdout) as { schemas: Listed[] }).schemas;
    expect(states.map((s) => `${s.operatorUid}/${s.state} ${s.role} ${s.root}`)).toEqual([
      'long-broadcast/rules VALUE_SERIALIZER fixtures.events.Rule',
      'long-broadcast/long-last-event VALUE_SERIALIZER fixtures.events.Event',
      'int-keyed/processed-events VALUE_SERIALIZER fixtures.events.Event',
      'int-keyed/even-events VALUE_SERIALIZER fixtures.events.Event',
      'int-keyed/event-history VALUE_SERIALIZER/0 fixtures.events.Event',
      'int-keyed/last-event VALUE_SERIALIZER fixtures.events.Event',
      'int-keyed/events-by-name VALUE_SERIALIZER/1 fixtures.events.Event',
      'string-keyed/ttl-last-event VALUE_SERIALIZER/1 fixtures.events.Event',
      'string-keyed/large-event VALUE_SERIALIZER fixtures.events.Event',
    ]);
    const out = path.join(dir, 'saved.binpb');
    const written = await run(['export-schema', SAVEPOINTS[0]!, '--operator', 'int-keyed', '--state', 'last-event', '--output', out]);
    expect([written.code, written.stderr]).toEqual([0, '']);
    const bytes = readFileSync(out);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(states[5]!.sha256);
    expect(bytes.length).toBe(states[5]!.size);
    expect(written.stdout.split('\n')[1]).toBe(
      `check a new schema against it: savepoint-inspector compare <new.binpb> --against ${out} --root fixtures.events.Event`,
    );
  });

  it('compare against the exported schema finds what check finds against the savepoint, per state and target', async () => {
    let comparedFindings = 0;
    for (const savepoint of SAVEPOINTS) {
      const states = JSON.parse((await run(['export-schema', savepoint, '--json'])).stdout) as Listed[];
      expect(states.length).toBeGreaterThan(0);
      for (const target of ['0.x', '1.x']) {
        const check = JSON.parse(
          (await run(['check', savepoint, '--descriptors', NEW_SCHEMA, '--no-values', '--target', target, '--format', 'json'])).stdout,
        ) as { states: ReportState[] };
        for (const s of states) {
          const out = path.join(dir, `${s.sha256}.binpb`);
          await run(['export-schema', savepoint, '--operator', s.operator, '--state', s.state, '--output', out]);
          const compared = JSON.parse(
            (await run(['compare', NEW_SCHEMA, '--against', out, '--root', s.root, '--target', target, '--format', 'json'])).stdout,
          ) as { states: ReportState[] };
          const checked = check.states.find((c) => c.operator === s.operator && c.state === s.state && c.role === s.role)!;
          const schemaOnly = (list: Finding[]) => list.filter((f) => !f.path.startsWith('settings.'));
          const expected = schemaOnly(target === '0.x' ? checked.findings : checked.planningAid!.findings);
          comparedFindings += expected.length;
          expect(schemaOnly(compared.states[0]!.findings), `${path.basename(path.dirname(savepoint))} ${s.state} ${target}`).toEqual(expected);
          // settings findings only where the snapshot recorded other settings than the defaults compare assumes
          if (compared.states[0]!.findings.length !== checked.findings.length && target === '0.x')
            expect(s.settings).not.toEqual({ deterministicSerialization: false, maxMessageSize: 67108864, recursionLimit: 100 });
          // the Java class compare derives from the exported set is the one the snapshot recorded
          expect(compared.states[0]!.savedJavaClass).toBe(s.javaClass);
        }
      }
    }
    // the new schema changes Event: the comparison has findings to agree on
    expect(comparedFindings).toBeGreaterThan(20);
  });

  it('finds operators as dump does: by a uid the savepoint does not store (hashed to the id) and by an upper-case id', async () => {
    const flink120 = SAVEPOINTS[1]!;
    const byUid = await run(['export-schema', flink120, '--operator', 'int-keyed', '--state', 'events-by-name', '--json']);
    expect(byUid.code).toBe(0);
    const [listed] = JSON.parse(byUid.stdout) as Listed[];
    expect([listed!.operator, listed!.operatorUid, listed!.role]).toEqual(['6d821971c3bfd7ae2c972e89d7414f7c', undefined, 'VALUE_SERIALIZER/1']);
    const byUpperId = await run([
      'export-schema',
      flink120,
      '--operator',
      listed!.operator.toUpperCase(),
      '--state',
      'events-by-name',
      '--role',
      'VALUE_SERIALIZER/1',
      '--json',
    ]);
    expect(JSON.parse(byUpperId.stdout)).toEqual([listed]);
    const header = (await run(['export-schema', flink120])).stdout.split('\n')[0];
    expect(header).toMatch(/^\d+ Protobuf state\(s\), \d+ serializer\(s\) with a Protobuf type, 1 saved schema\(s\):$/);
  });

  it('a state keyed by a Protobuf message holds two saved schemas: the selection must name one by role or root', async () => {
    const sp = path.join(dir, 'keyed-by-proto');
    writeKeyedByProtobufSavepoint(sp);
    const several = await run(['export-schema', sp, '--state', 'v', '--output', path.join(dir, 'none.binpb')]);
    expect(several.code).toBe(2);
    expect(several.stderr.split('\n').slice(0, 3)).toEqual([
      'savepoint-inspector export-schema: the selection holds 2 different saved schemas; narrow it with --operator, --state, --role or --root:',
      expect.stringMatching(/^ {2}a{32}\/v KEY_SERIALIZER: root p\.Key, schema [0-9a-f]{12}… \(\d+ bytes\)$/),
      expect.stringMatching(/^ {2}a{32}\/v VALUE_SERIALIZER: root p\.Val, schema [0-9a-f]{12}… \(\d+ bytes\)$/),
    ]);
    expect(existsSync(path.join(dir, 'none.binpb'))).toBe(false);
    const listed = JSON.parse((await run(['export-schema', sp, '--json'])).stdout) as Listed[];
    for (const [option, value, root] of [
      ['--role', 'KEY_SERIALIZER', 'p.Key'],
      ['--root', 'p.Val', 'p.Val'],
    ] as const) {
      const out = path.join(dir, `${root}.binpb`);
      const one = await run(['export-schema', sp, option, value, '--output', out]);
      expect([one.code, one.stderr]).toEqual([0, '']);
      expect(createHash('sha256').update(readFileSync(out)).digest('hex')).toBe(listed.find((s) => s.root === root)!.sha256);
      // the exported schema is a descriptor set compare reads (against itself: compatible)
      const same = await run(['compare', out, '--against', out, '--root', root]);
      expect([same.code, same.stdout.split('\n')[0]]).toEqual([0, 'Schema compatibility: compatible']);
    }
  });

  it('says what is there when the selection names nothing', async () => {
    const none = await run(['export-schema', SAVEPOINTS[0]!, '--state', 'nope', '--output', path.join(dir, 'x.binpb')]);
    expect(none.code).toBe(2);
    expect(none.stderr.split('\n').slice(0, 2)).toEqual([
      'savepoint-inspector export-schema: no Protobuf state matches --state nope; its Protobuf states:',
      '  long-broadcast/rules VALUE_SERIALIZER: root fixtures.events.Rule, schema ffe146abec15… (1204 bytes)',
    ]);
    expect(existsSync(path.join(dir, 'x.binpb'))).toBe(false);
    const usage = await run(['export-schema', SAVEPOINTS[0]!, '--format', 'json', '--output', path.join(dir, 'x.binpb')]);
    expect([usage.code, usage.stderr.split('\n')[0]]).toEqual([
      2,
      'savepoint-inspector export-schema: --format json lists the schemas; it cannot be combined with --output',
    ]);
  });
});
