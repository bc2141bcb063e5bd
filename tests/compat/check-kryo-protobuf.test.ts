/**
 * `check` on the Kryo-held Protobuf fixtures (fixtures/kryo-savepoints, real Flink 1.20 and 2.3): every state whose
 * values are Protobuf behind Kryo is not-restorable with its rule (chill-protobuf, or the plain-Kryo hazard), the
 * report says its values were not scanned, and the CLI exits 1 — never 0 — for them.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';

const ROOT = path.resolve(process.cwd(), 'fixtures/kryo-savepoints');
const SCHEMA = path.join(ROOT, 'events.binpb');

async function check(
  savepoint: string,
  extra: string[] = [],
): Promise<{
  code: number;
  report: {
    verdict: string;
    notChecked?: string[];
    summary: Record<string, number>;
    states: { state: string; verdict: string; firstIncompatibility: { ruleId: string; message: string } | null; valuesNotRead?: string; savedRoot?: string }[];
  };
}> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['check', path.join(ROOT, savepoint, 'savepoint'), '--descriptors', SCHEMA, '--format', 'json', ...extra], {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  expect(stderr).toBe('');
  return { code, report: JSON.parse(stdout) };
}

describe('check on Kryo-held Protobuf state', () => {
  for (const [savepoint, states] of [
    ['flink-1.20/hashmap/kryo-registered', ['event-history', 'event-holder', 'events-by-name', 'last-event', 'processed-events']],
    ['flink-2.3/hashmap/kryo-default', ['any-message', 'event-history', 'event-holder', 'events-by-name', 'last-event', 'processed-events']],
    ['flink-2.3/rocksdb/kryo-registered', ['event-history', 'event-holder', 'events-by-name', 'last-event', 'processed-events']],
  ] as const) {
    it(`${savepoint}: every Protobuf state is not restorable (KRYO_PROTOBUF_NOT_RESTORABLE), exit 1`, async () => {
      const { code, report } = await check(savepoint);
      expect(code).toBe(1);
      expect(report.verdict).toBe('not-restorable');
      const kryo = report.states.filter((s) => s.firstIncompatibility?.ruleId === 'KRYO_PROTOBUF_NOT_RESTORABLE');
      expect(kryo.map((s) => s.state).sort()).toEqual([...states]);
      expect(report.summary['notRestorable']).toBe(states.length);
      for (const s of kryo) {
        expect(s.verdict).toBe('not-restorable');
        expect(s.valuesNotRead).toMatch(/^values held by Kryo/);
        expect(s.firstIncompatibility!.message).toContain('com.twitter.chill.protobuf.ProtobufSerializer');
      }
      expect(kryo.find((s) => s.state === 'last-event')!.savedRoot).toBe('fixtures.events.Event');
      // the summary gives the real reason: Kryo values are readable, and unchecked because no saved schema is kept
      const unchecked = kryo.filter((s) => s.valuesNotRead!.startsWith('values held by Kryo: their value warnings need the saved schema')).length;
      expect(unchecked).toBeGreaterThan(0);
      expect(report.notChecked).toContain(
        `the value warnings of ${unchecked} Protobuf state${unchecked === 1 ? '' : 's'} held by Kryo were not checked: they need the saved schema, which a Kryo snapshot does not keep`,
      );
      expect(report.notChecked!.join('\n')).not.toMatch(/missing or unreadable|could not be read/);
    });
  }

  it('says in the text summary that Kryo values were not checked, not that files failed', async () => {
    let stdout = '';
    await runCli(['check', path.join(ROOT, 'flink-2.3/hashmap/kryo-default', 'savepoint'), '--descriptors', SCHEMA], {
      stdout: (t) => (stdout += t),
      stderr: () => {},
    });
    expect(stdout).toMatch(/the value warnings of \d+ state\(s\) held by Kryo were not checked \(a Kryo snapshot keeps no saved schema\)/);
    expect(stdout).not.toMatch(/missing or unreadable/);
  });

  it('names the plain-Kryo hazard (Flink 1.20, no chill serializer): not-restorable (not incompatible), exit 1', async () => {
    const { code, report } = await check('flink-1.20/hashmap/kryo-plain');
    expect(code).toBe(1);
    expect(report.verdict).toBe('not-restorable');
    expect(report.summary).toMatchObject({ protobufStates: 1, compatible: 0, incompatible: 0, notRestorable: 1, unknown: 0, valuesNotRead: 1 });
    const state = report.states.find((s) => s.state === 'last-event')!;
    expect(state.verdict).toBe('not-restorable');
    expect(state.savedRoot).toBe('fixtures.events.Event');
    expect(state.firstIncompatibility!.ruleId).toBe('KRYO_PLAIN_PROTOBUF_HAZARD');
    expect(state.firstIncompatibility!.message).toContain("Kryo's FieldSerializer");
    expect(state.valuesNotRead).toContain('FieldSerializer');
  });

  it('gives native Protobuf state no Kryo rule (the accepting case)', async () => {
    let stdout = '';
    const code = await runCli(
      [
        'check',
        path.resolve('fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint'),
        '--descriptors',
        SCHEMA,
        '--format',
        'json',
        '--target',
        '0.x',
        '--no-values',
      ],
      { stdout: (t) => (stdout += t), stderr: () => {} },
    );
    const report = JSON.parse(stdout) as { verdict: string; states: { firstIncompatibility: { ruleId: string } | null; findings: { ruleId: string }[] }[] };
    expect(code).toBe(0);
    expect(report.verdict).toBe('compatible');
    expect(report.states.flatMap((s) => [s.firstIncompatibility?.ruleId, ...s.findings.map((f) => f.ruleId)]).filter((id) => id?.startsWith('KRYO_'))).toEqual(
      [],
    );
  });

  it('is not restorable at target 0.x either', async () => {
    const { code, report } = await check('flink-1.20/hashmap/kryo-default', ['--target', '0.x']);
    expect(code).toBe(1);
    expect(report.states.filter((s) => s.verdict === 'not-restorable').length).toBe(6);
  });
});

describe('migration-plan', () => {
  it('plans every Kryo-held Protobuf state of the operator and names what it cannot carry', async () => {
    let stdout = '';
    const code = await runCli(['migration-plan', path.join(ROOT, 'flink-2.3/rocksdb/kryo-registered/savepoint'), '--descriptors', SCHEMA, '--format', 'json'], {
      stdout: (t) => (stdout += t),
      stderr: () => {},
    });
    expect(code).toBe(0);
    const plan = JSON.parse(stdout) as {
      operators: {
        uid: string | null;
        states: {
          state: string;
          kind: string;
          keyType: string | null;
          valueClass: string;
          messageType: string | null;
          kryo: string;
          action: string;
          generatedJob: string;
        }[];
        notCarried: { state: string; why: string }[];
      }[];
    };
    expect(plan.operators).toHaveLength(1);
    const op = plan.operators[0]!;
    expect(op.uid).toBe('kryo-keyed');
    expect(op.states.map((s) => [s.state, s.kind, s.keyType, s.messageType])).toEqual([
      ['event-history', 'LIST', 'Integer', 'fixtures.events.Event'],
      ['event-holder', 'VALUE', 'Integer', 'fixtures.events.Event'],
      ['events-by-name', 'MAP', 'Integer', 'fixtures.events.Event'],
      ['last-event', 'VALUE', 'Integer', 'fixtures.events.Event'],
      ['processed-events', 'OPERATOR_LIST', null, 'fixtures.events.Event'],
    ]);
    expect(op.states.find((s) => s.state === 'event-holder')!.action).toContain('composite (POJO/tuple)');
    // what migration-job generates: every state but the POJO field
    expect(op.states.map((s) => [s.state, s.generatedJob.slice(0, 40)])).toEqual([
      ['event-history', 'carried by migration-job'],
      ['event-holder', 'not carried by migration-job: the messag'],
      ['events-by-name', 'carried by migration-job'],
      ['last-event', 'carried by migration-job'],
      ['processed-events', 'carried by migration-job'],
    ]);
    expect(op.notCarried.map((n) => n.state).sort()).toEqual(['_timer_state/event_user-timers', '_timer_state/processing_user-timers']);
    expect(op.notCarried[0]!.why).toContain('cannot write timers');
  });

  it('exits 1 when there is nothing to migrate', async () => {
    let stdout = '';
    const code = await runCli(['migration-plan', path.resolve('fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint'), '--descriptors', SCHEMA], {
      stdout: (t) => (stdout += t),
      stderr: () => {},
    });
    expect(code).toBe(1);
    expect(stdout).toBe('No Protobuf state held by Kryo: nothing to migrate.\n');
  });
});
