/**
 * `dump` run in-process over a fixture savepoint written by real Flink (skipped when fixtures/
 * is absent), and its usage errors. Its run over a real savepoint in ../shared is
 * tests/shared-savepoints/cli-dump.test.ts.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSavepointWithHugeValue } from '../../../tests/helpers/write-savepoint-with-huge-value';
import { runCli } from '../run-cli';
import type { DumpUnknownField } from './dump';
import { requireCommitted } from '../../../tests/helpers/committed-data';

const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');
const exists = existsSync(SAVEPOINT);
if (!exists) console.warn(`skipping dump golden tests: ${SAVEPOINT} is absent`);

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe('dump: usage', () => {
  it('requires a savepoint, --operator and --state, and a numeric --limit', async () => {
    for (const [args, message] of [
      [['dump', '--operator', 'x', '--state', 'y'], 'expected a savepoint to dump'],
      [['dump', 'sp', '--state', 'y'], 'expected --operator <id|uid>'],
      [['dump', 'sp', '--operator', 'x'], 'expected --state <name>'],
      [['dump', 'sp', '--operator', 'x', '--state', 'y', '--limit', 'ten'], 'expected --limit to be a non-negative integer, found ten'],
    ] as const) {
      const r = await run(...args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`savepoint-inspector dump: ${message}`);
      expect(r.stderr).toContain('Usage: savepoint-inspector dump');
    }
  });
});

requireCommitted(SAVEPOINT);

describe('dump over a fixture savepoint', () => {
  it('prints keyed ValueState entries with key, key group, namespace, decoded value and unknown fields', async () => {
    const r = await run('dump', SAVEPOINT, '--operator', 'int-keyed', '--state', 'last-event', '--limit', '1');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('operator int-keyed, state last-event');
    expect(lines[1]).toBe('#1  subtask 0  key group 1  key 3  namespace VoidNamespace');
    expect(lines[2]).toBe(
      '  value: {"id":"23","name":"event-23","kind":"DELETED","tags":["t0","t1"],"location":{"lat":23.5,"lon":-23.25},"priority":2,"blob":"FxcXFxcXFxc=","deltas":["-23","23","-1"],"parent":{"id":"22","name":"parent"},"score":34.5}',
    );
    expect(lines[3]).toBe('  protobuf: fixtures.events.Event, 84 payload bytes, depth 1, 1 unknown field');
    expect(lines[4]).toMatch(/^ {4}unknown field 100 \(varint\) in the root message: savepoint\/[0-9a-f-]+ offset \d+, 3 bytes: a00663$/);
    expect(lines[5]).toBe('1 entry');
  });

  it('caps what one value prints (unknown fields, their bytes, the value), says where, and --full-values lifts it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'si-dump-caps-'));
    try {
      const sp = writeSavepointWithHugeValue(SAVEPOINT, path.join(dir, 'sp'));
      const capped = JSON.parse((await run('dump', sp, '--operator', 'int-keyed', '--state', 'processed-events', '--limit', '1', '--format', 'json')).stdout);
      const p = capped.entries[0].protobuf[0];
      expect(p.unknownFields).toHaveLength(1000);
      expect(p.unknownFieldsOmitted).toBe(1501 + 1 - 1000);
      const big = p.unknownFields.find((u: DumpUnknownField) => u.number === 200);
      expect(big).toMatchObject({ length: 5 + 200_000, hexTruncated: true }); // tag (2 bytes) and length (3 bytes) included
      expect(big.hex).toHaveLength(512);
      expect(capped.entries[0].value).toEqual({ kind: 'omitted', reason: "the value's JSON is longer than 1048576 characters; --full-values prints it" });
      const text = (await run('dump', sp, '--operator', 'int-keyed', '--state', 'processed-events', '--limit', '1')).stdout;
      expect(text).toContain("  value: (not printed: the value's JSON is longer than 1048576 characters; --full-values prints it)");
      expect(text).toContain('1502 unknown fields');
      expect(text).toContain(', 200005 bytes: ');
      expect(text).toContain(' … (the first 256 of 200005 bytes; --full-values prints all)');
      expect(text).toContain('    … 502 more unknown fields not listed (--full-values lists all)');
      const full = JSON.parse(
        (await run('dump', sp, '--operator', 'int-keyed', '--state', 'processed-events', '--limit', '1', '--format', 'json', '--full-values')).stdout,
      );
      expect(full.entries[0].protobuf[0].unknownFields).toHaveLength(1502);
      expect(full.entries[0].protobuf[0].unknownFields.find((u: DumpUnknownField) => u.number === 200).hex).toHaveLength(2 * (5 + 200_000));
      expect(full.entries[0].value.kind).toBe('message');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prints MapState user keys and a JSON document with --json', async () => {
    const r = await run('dump', SAVEPOINT, '--operator', 'int-keyed', '--state', 'events-by-name', '--format', 'json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.operator).toBe('int-keyed');
    expect(doc.state).toBe('events-by-name');
    expect(doc.entries.length).toBeGreaterThan(0);
    const e = doc.entries.find((x: { userKey?: { value?: unknown } }) => x.userKey?.value === 'event-20');
    expect(e).toMatchObject({ key: { kind: 'int', value: 0 }, keyGroup: 14, subtask: 1, value: { kind: 'message', typeName: 'fixtures.events.Event' } });
    expect(e.protobuf[0].unknownFields.map((u: DumpUnknownField) => [u.number, u.wireType, u.hex])).toEqual([
      [100, 'varint', 'a00663'],
      [101, 'length-delimited', 'aa060865787472612d3230'],
    ]);
  });

  it('fails with exit 2 for an operator the savepoint does not have', async () => {
    const r = await run('dump', SAVEPOINT, '--operator', 'no-such-uid', '--state', 'x');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('expected an operator id or uid of this savepoint, found no-such-uid');
  });

  it('fails with exit 2 for a state the operator does not have, listing its states; an empty state is no error', async () => {
    const r = await run('dump', SAVEPOINT, '--operator', 'int-keyed', '--state', 'no-such-state', '--format', 'json');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'savepoint-inspector dump: expected a state of operator 6d821971c3bfd7ae2c972e89d7414f7c, found "no-such-state" (its states: "_timer_state/event_user-timers", "_timer_state/processing_user-timers", "even-events", "event-history", "events-by-name", "last-event", "processed-events")\n',
    );
    // the processing-time timers of the fixture job: named by the header, no entries
    const empty = await run('dump', SAVEPOINT, '--operator', 'int-keyed', '--state', '_timer_state/processing_user-timers', '--format', 'json');
    expect(empty.code).toBe(0);
    expect(JSON.parse(empty.stdout).entries).toEqual([]);
  });
});

describe('dump of a HashMap NATIVE savepoint (heap key groups decode whole state chunks first)', () => {
  /** per (key, user key): the Protobuf details of the entry, without offsets (the formats lay bytes out differently) */
  const details = async (format: string, state: string) => {
    const r = await run('dump', SAVEPOINT.replace('/canonical/', `/${format}/`), '--operator', 'int-keyed', '--state', state, '--format', 'json');
    expect(r.code).toBe(0);
    const entries = JSON.parse(r.stdout).entries as {
      key: unknown;
      userKey?: unknown;
      protobuf: { typeName: string; payloadSize: number; depth: number; unknownFields: { number: number }[] }[];
    }[];
    return entries
      .map((e) => JSON.stringify([e.key, e.userKey ?? null, e.protobuf.map((p) => [p.typeName, p.payloadSize, p.depth, p.unknownFields.map((u) => u.number)])]))
      .sort();
  };
  for (const state of ['events-by-name', 'last-event', 'event-history']) {
    it(`${state}: every entry keeps its own Protobuf values, as in the canonical savepoint`, async () => {
      const native = await details('native', state);
      expect(native.every((d) => !d.endsWith(',[]]'))).toBe(true);
      expect(native).toEqual(await details('canonical', state));
    });
  }
});

/**
 * A copy of the fixture savepoint whose first `processed-events` element of subtask 0 (operator int-keyed)
 * carries, after its payload, an unknown 200,000-byte field 200, 1,500 unknown varint fields 300 (1,502
 * unknown fields with the value's own field 100) and an 800,000-byte `blob`: the later elements and the
 * handle's offsets move.
 */

describe('dump: output in batches', () => {
  it('hands stdout a few large pieces, not one write per entry, and the same text', async () => {
    requireCommitted(SAVEPOINT);
    for (const json of [false, true]) {
      const writes: string[] = [];
      const argv = ['dump', SAVEPOINT, '--operator', 'int-keyed', '--state', 'processed-events', ...(json ? ['--format', 'json'] : [])];
      const code = await runCli(argv, { stdout: (t) => void writes.push(t), stderr: () => undefined });
      expect(code).toBe(0);
      const text = writes.join('');
      // 24 entries, 35 KB of text (60 KB as JSON): one or two pieces, where one write per entry made 26
      expect(text.length).toBeGreaterThan(30_000);
      expect(writes.length, json ? '--format json' : 'text').toBeLessThanOrEqual(Math.ceil(text.length / 65_536) + 1);
      expect(text).toBe((await run(...argv)).stdout);
    }
  });
});
