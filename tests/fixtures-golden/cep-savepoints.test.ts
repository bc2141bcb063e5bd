/**
 * Golden test over the CEP savepoint real Flink 1.20.3 with flink-cep wrote (issue #36; fixtures/cep-writer, committed
 * under fixtures/cep-savepoints): the pattern `start` (a value beginning with "a") followed by `end` (one beginning
 * with "b"), in processing time, over the events of its manifest keyed by their second character. Every state of the
 * CEP operator is decoded fully, and the decoded NFA states and shared buffer hold exactly what those events leave:
 * key "1" (a1, x1, a1) two started matches waiting at `end`, key "2" (a2, b2, a2) one (the match a2 b2 was emitted and
 * released), each started match pointing at its `start` event in the shared buffer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { requireCommitted } from '../helpers/committed-data';

const DIR = join(process.cwd(), 'fixtures', 'cep-savepoints', 'flink-1.20', 'hashmap');

interface Manifest {
  versions: { flink: string };
  operator: { uid: string };
  keys: { key: string; keyGroup: number; events: string[] }[];
}
interface Value {
  kind: string;
  value?: string | number;
  text?: string;
  items?: Value[];
  fields?: { name: string; value: Value }[];
}
type Plain = string | number | null | Plain[] | { [k: string]: Plain };

/** A decoded value in plain terms: POJO-like CEP values as objects by field name, DeweyNumbers as their text. */
function plain(v: Value): Plain {
  switch (v.kind) {
    case 'pojo':
      return Object.fromEntries(v.fields!.map((f) => [f.name, plain(f.value)]));
    case 'list':
      return v.items!.map(plain);
    case 'string':
    case 'int':
    case 'long':
      return v.value!;
    case 'other':
      return v.text!;
    case 'null':
      return null;
    default:
      throw new Error(`unexpected value kind ${v.kind}`);
  }
}

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => void (out += t), stderr: (t) => void (err += t) });
  return { code, out, err };
}

async function dump(state: string): Promise<{ keyGroup: number; key: Plain; userKey?: Plain; value: Plain }[]> {
  const r = await cli(['dump', join(DIR, 'savepoint'), '--operator', 'cep-pattern', '--state', state, '--format', 'json']);
  expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
  const entries = (JSON.parse(r.out) as { entries: { keyGroup: number; key: Value; userKey?: Value; value: Value }[] }).entries;
  return entries.map((e) => ({ keyGroup: e.keyGroup, key: plain(e.key), ...(e.userKey ? { userKey: plain(e.userKey) } : {}), value: plain(e.value) }));
}

describe('CEP savepoint (Flink 1.20.3, flink-cep)', () => {
  requireCommitted(DIR);
  const manifest = JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as Manifest;
  const keyGroupOf = new Map(manifest.keys.map((k) => [k.key, k.keyGroup]));
  /** the "a" events of each key that no emitted match consumed: key 1 both a1, key 2 the a2 after b2 */
  const pending = new Map(
    manifest.keys.map((k) => [k.key, k.events.filter((e, i) => e.startsWith('a') && !k.events.slice(i + 1).some((n) => n.startsWith('b')))]),
  );

  it('inspect lists every state of the CEP operator, each decoded fully, with its CEP serializers', async () => {
    expect(manifest.versions.flink).toBe('1.20.3');
    const r = await cli(['inspect', join(DIR, 'savepoint'), '--format', 'json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as {
      summary: Record<string, number>;
      operators: { states: { name: string; valueType: string; decoded: string; entries: number }[] }[];
    };
    expect(doc.summary).toMatchObject({ states: 7, decodedFully: 7, partlyDecoded: 0, notRead: 0, streamsNotRead: 0 });
    const states = doc.operators.flatMap((o) => o.states).map((s) => [s.name, s.valueType, s.decoded, s.entries]);
    expect(states.sort()).toEqual(
      [
        ['_timer_state/event_watermark-callbacks', 'Timer<String, VoidNamespace>', 'fully', 0],
        ['_timer_state/processing_watermark-callbacks', 'Timer<String, VoidNamespace>', 'fully', 0],
        ['eventQueuesStateName', 'Map<Long, List<String>>', 'fully', 0],
        ['nfaStateName', 'NFAState', 'fully', 2],
        ['sharedBuffer-entries-with-lockable-edges', 'Map<NodeId, Lockable<SharedBufferNode>>', 'fully', 3],
        ['sharedBuffer-events', 'Map<EventId, Lockable<String>>', 'fully', 3],
        ['sharedBuffer-events-count', 'Map<Long, Integer>', 'fully', 2],
      ].sort(),
    );
  });

  it("the shared buffer's events are each key's pending start events, each referenced once, in their key's key group", async () => {
    const events = await dump('sharedBuffer-events');
    for (const [key, expected] of pending) {
      const mine = events.filter((e) => e.key === key);
      expect(mine.map((e) => e.keyGroup)).toEqual(expected.map(() => keyGroupOf.get(key)));
      expect(mine.map((e) => e.value)).toEqual(expected.map((element) => ({ refCounter: 1, element })));
    }
    // the events' ids are (number within its millisecond, processing time); the counts per timestamp agree with them
    const counts = await dump('sharedBuffer-events-count');
    const byTimestamp = new Map<string, number>();
    for (const e of events) {
      const id = e.userKey as { id: number; timestamp: string };
      byTimestamp.set(`${String(e.key)}@${id.timestamp}`, Math.max(byTimestamp.get(`${String(e.key)}@${id.timestamp}`) ?? 0, id.id + 1));
    }
    // Flink keeps the count only for the newest timestamp of a key
    for (const c of counts) expect(byTimestamp.get(`${String(c.key)}@${String(c.userKey)}`)).toBe(c.value);
  });

  it('the NFA state of each key: one started match per pending event waiting at `end`, then the start state', async () => {
    const nfa = await dump('nfaStateName');
    const events = await dump('sharedBuffer-events');
    const entries = await dump('sharedBuffer-entries-with-lockable-edges');
    expect(nfa.map((e) => [e.key, e.keyGroup])).toEqual(manifest.keys.map((k) => [k.key, k.keyGroup]));
    for (const { key, value } of nfa) {
      const state = value as { partialMatches: Record<string, Plain>[]; completedMatches: Plain[] };
      expect(state.completedMatches).toEqual([]);
      const started = state.partialMatches.filter((m) => m.currentStateName === 'end');
      const eventIds = events.filter((e) => e.key === key).map((e) => e.userKey);
      expect(started.map((m) => m.startEventId).sort()).toEqual([...eventIds].sort());
      for (const m of started) {
        // the match's previous entry is its start event's node in the shared buffer, page `start`
        expect(m.previousBufferEntry).toEqual({ eventId: m.startEventId, pageName: 'start' });
        expect(entries.some((e) => e.key === key && JSON.stringify(e.userKey) === JSON.stringify(m.previousBufferEntry))).toBe(true);
        expect(m.startTimestamp).toBe((m.startEventId as { timestamp: string }).timestamp);
        expect(m.previousTimestamp).toBe(m.startTimestamp);
      }
      // the start state last, with no event, its version one above the started matches'
      const startState = state.partialMatches.at(-1)!;
      expect(startState).toMatchObject({ currentStateName: 'start', previousBufferEntry: null, startTimestamp: '-1', startEventId: null });
      expect(state.partialMatches.length).toBe(pending.get(key as string)!.length + 1);
    }
  });

  it("each shared buffer node (a pending start event's) has one edge to no earlier node, versioned by its match", async () => {
    const entries = await dump('sharedBuffer-entries-with-lockable-edges');
    const nfa = await dump('nfaStateName');
    for (const e of entries) {
      const node = e.value as { refCounter: number; element: { edges: { refCounter: number; element: { target: Plain; deweyNumber: string } }[] } };
      expect(node.refCounter).toBe(1);
      expect(node.element.edges.map((x) => [x.refCounter, x.element.target])).toEqual([[1, null]]);
      const match = (nfa.find((n) => n.key === e.key)!.value as { partialMatches: Record<string, Plain>[] }).partialMatches.find(
        (m) => JSON.stringify(m.previousBufferEntry) === JSON.stringify(e.userKey),
      )!;
      // the edge's version is the match's version without its last stage (1.0 → 1)
      expect(`${node.element.edges[0]!.element.deweyNumber}.0`).toBe(match.version);
    }
  });
});
