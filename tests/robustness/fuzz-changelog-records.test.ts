/**
 * Changelog operation records (a real Flink 1.17 changelog checkpoint's in-memory changes in `_metadata`,
 * ../shared/real-savepoints-defects) under structure-aware mutations of one change: its `u8` operation (a code
 * no Flink writes, MERGE_NS on a value state), its `i16` state id (one no META record declares), its `i32` length
 * in the handle (one byte off), and its payload cut or grown by a byte with the length kept consistent. Every
 * run ends in exit 0, 1 or 2 (2 located), with no stack trace, in bounded time and memory, and answers (the
 * replayed states' statuses and entries, a replayed state's values) what the unmutated checkpoint answers
 * unless it says a state could not be read whole.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readCheckpointMetadata } from '../../src/core/flink';
import { NEEDS_SHARED_TAG } from '../helpers/shared-savepoints';
import { describeSummary, FULL, makeScratchDir, runFuzzCases, type FuzzCase } from './fuzz-workspace';
import { judgeAgainstBaseline, viewDump, type AnswerView, type ViewAnswer } from './judge-against-baseline';
import { CliCaseRunner, type CliRun } from './run-cli-cases';
import { createSeededRandom, type SeededRandom } from './seeded-random';

const SEED = 0x636c67;
const CASES = FULL ? 200 : 24;
const SOURCE = path.resolve(process.cwd(), '../shared/real-savepoints-defects/new-stateful-udf-migration-itcase-flink1.17-hashmap-checkpoint');
const NEEDS_CHECKPOINT = { tags: [NEEDS_SHARED_TAG], skip: !existsSync(SOURCE) };
const REPLAYED = '41e91aae0bee218c44306cf7d21940ad';

interface Change {
  offset: number;
  length: number;
}

function splice(b: Buffer, at: number, remove: number, insert: number[]): Buffer {
  return Buffer.concat([b.subarray(0, at), Buffer.from(insert), b.subarray(at + remove)]);
}

function mutateChange(meta: Buffer, c: Change, rnd: SeededRandom): [Buffer, string] {
  const b = Buffer.from(meta);
  const op = b[c.offset]!;
  switch (rnd.int(5)) {
    case 0: {
      const to = [0x0b, 0x7f, 0xff, 4][rnd.int(4)]!;
      b[c.offset] = to;
      return [b, `operation ${op} → ${to}`];
    }
    case 1: {
      const id = b.readInt16BE(c.offset + 1);
      const to = [0x7fff, 0x7ffe, -1][rnd.int(3)]!;
      b.writeInt16BE(to, c.offset + 1);
      return [b, `state id ${id} → ${to} (operation ${op})`];
    }
    case 2: {
      const to = c.length + (rnd.int(2) === 0 ? 1 : -1);
      b.writeInt32BE(to, c.offset - 4);
      return [b, `change length ${c.length} → ${to} (operation ${op})`];
    }
    case 3: {
      b.writeInt32BE(c.length - 1, c.offset - 4);
      return [splice(b, c.offset + c.length - 1, 1, []), `the last byte of a ${c.length}-byte change removed, its length kept consistent (operation ${op})`];
    }
    default: {
      b.writeInt32BE(c.length + 1, c.offset - 4);
      return [splice(b, c.offset + c.length, 0, [0]), `a byte added after a ${c.length}-byte change, its length kept consistent (operation ${op})`];
    }
  }
}

interface InspectJson {
  errors: unknown[];
  summary: { streamsNotRead: number };
  operators: { id: string; states: { name: string; status: string; decoded?: string; entries?: number }[] }[];
}

/**
 * `inspect --json`, relative to the unmutated checkpoint (two of whose states are partly decoded already: the
 * changelog does not record their key serializer): flagged by an error, a stream not read, or by a state whose status or decoding
 * differs from the unmutated one's and is not `ok`/`fully`.
 */
function viewInspectAgainst(baseline: { operator: string; name: string; status: string; decoded?: string; entries?: number }[] | undefined): ViewAnswer {
  return (run: CliRun): AnswerView => {
    const parsed = JSON.parse(run.stdout) as InspectJson;
    const states = parsed.operators.flatMap((op) =>
      op.states.map((s) => ({ operator: op.id, name: s.name, status: s.status, decoded: s.decoded, entries: s.entries })),
    );
    if (parsed.errors.length > 0) return { answer: states, flagged: `${parsed.errors.length} error(s)` };
    if (parsed.summary.streamsNotRead > 0) return { answer: states, flagged: `${parsed.summary.streamsNotRead} stream(s) not read` };
    const changed = states.find((s, i) => !isDeepStrictEqual(s, baseline?.[i]) && (s.status !== 'ok' || s.decoded !== 'fully'));
    return { answer: states, flagged: changed ? `${changed.operator}/${changed.name}: ${changed.status}/${changed.decoded}` : undefined };
  };
}

describe('fuzz: changelog operation records of a changelog checkpoint', NEEDS_CHECKPOINT, () => {
  it(`${CASES} cases answer as the unmutated checkpoint does, or say what they could not read`, async () => {
    const scratch = makeScratchDir('changelog');
    try {
      const cp = path.join(scratch.dir, 'chk');
      cpSync(SOURCE, cp, { recursive: true });
      const meta = readFileSync(path.join(cp, '_metadata'));
      const changes: Change[] = readCheckpointMetadata(new Uint8Array(meta), '_metadata').operators.flatMap((op) =>
        op.subtasks.flatMap((s) =>
          s.managedKeyedState?.kind === 'changelog' ? s.managedKeyedState.nested.flatMap((n) => ('changes' in n ? (n.changes ?? []) : [])) : [],
        ),
      );
      expect(changes.length).toBeGreaterThanOrEqual(10);
      for (const c of changes) expect(meta.readInt32BE(c.offset - 4)).toBe(c.length);

      const inspectArgv = ['inspect', cp, '--format', 'json'];
      const dumpArgv = ['dump', cp, '--operator', REPLAYED, '--state', 'state-name', '--format', 'json'];
      const baseline = new CliCaseRunner();
      let inspectAnswer: unknown;
      let dumpAnswer: unknown;
      try {
        const i = await baseline.run(inspectArgv, 60_000);
        expect([i.code, i.stderr]).toEqual([0, '']);
        inspectAnswer = viewInspectAgainst(undefined)(i).answer;
        const d = await baseline.run(dumpArgv, 60_000);
        expect([d.code, d.stderr]).toEqual([0, '']);
        const seen = viewDump(d);
        expect(seen.flagged).toBeUndefined();
        expect((seen.answer as unknown[]).length).toBe(4);
        dumpAnswer = seen.answer;
      } finally {
        await baseline.close();
      }
      const viewInspect = viewInspectAgainst(inspectAnswer as never);
      const rnd = createSeededRandom(SEED);
      const cases: FuzzCase[] = [];
      for (let i = 0; i < CASES; i++) {
        const c = changes[rnd.int(changes.length)]!;
        const [bytes, what] = mutateChange(meta, c, rnd);
        const inspect = i % 2 === 0;
        cases.push({
          name: `changelog #${i} (seed ${SEED}): change at ${c.offset}: ${what}`,
          prepare: () => {
            writeFileSync(path.join(cp, '_metadata'), bytes);
            return inspect ? inspectArgv : dumpArgv;
          },
          judge: (run) => (inspect ? judgeAgainstBaseline(run, inspectAnswer, viewInspect) : judgeAgainstBaseline(run, dumpAnswer, viewDump)),
        });
      }
      const summary = await runFuzzCases(cases);
      console.log(describeSummary('changelog fuzz', summary));
      expect(summary.failures).toEqual([]);
    } finally {
      scratch.remove();
    }
  });

  // found by this suite (changelog #64, #45, seed 6515815): a META record whose state id no data change names (or whose
  // operation is not METADATA) left that state's changes unapplied — its entries read from the materialized part
  // alone, "decoded fully" — and the error of a data change naming an undefined state id gave no offset
  it("a data change naming a state id no META record defines makes the subtask's changelog states unreadable, at that change's offset", async () => {
    const scratch = makeScratchDir('changelog-ids');
    const runner = new CliCaseRunner();
    try {
      const cp = path.join(scratch.dir, 'chk');
      cpSync(SOURCE, cp, { recursive: true });
      const meta = readFileSync(path.join(cp, '_metadata'));
      const doc = readCheckpointMetadata(new Uint8Array(meta), '_metadata');
      const op = doc.operators.find((o) => o.id === REPLAYED)!;
      const subtask = op.subtasks.find((s) => s.managedKeyedState?.kind === 'changelog')!;
      const handle = subtask.managedKeyedState as { nested: ({ changes?: { offset: number; length: number; keyGroup: number }[] } | object)[] };
      const changes = handle.nested.flatMap((n) => ('changes' in n ? (n.changes ?? []) : []));
      // the META record of state-name (the first whose operation is METADATA and whose bytes hold the name)
      const record = changes.find((c) => meta[c.offset] === 8 && meta.subarray(c.offset, c.offset + c.length).includes(Buffer.from('state-name')))!;
      const idAt = record.offset + record.length - 3; // i16 state id, u8 backend state type
      const dataChange = changes.find((c) => c.offset > record.offset && meta[c.offset] !== 8 && meta.readInt16BE(c.offset + 1) === meta.readInt16BE(idAt))!;
      const bytes = Buffer.from(meta);
      bytes.writeInt16BE(0x7fff, idAt);
      writeFileSync(path.join(cp, '_metadata'), bytes);
      const run = await runner.run(['inspect', cp, '--format', 'json'], 60_000);
      expect(run.code).toBe(0);
      const parsed = JSON.parse(run.stdout) as {
        operators: { id: string; states: { name: string; status: string; decoded: string; statusReason?: string; reason?: string }[] }[];
      };
      const state = parsed.operators.find((o) => o.id === REPLAYED)!.states.find((s) => s.name === 'state-name')!;
      expect(state.decoded).not.toBe('fully');
      expect(JSON.stringify(state)).toContain(
        `names state id ${meta.readInt16BE(idAt)}, which no META record before it defines — at chk/_metadata, offset ${dataChange.offset + 1} `,
      );
      // the META record itself unreadable (its version overwritten): it names no state, so the subtask's keyed stream is not read whole
      const unread = Buffer.from(meta);
      unread.writeInt16BE(0x7fff, record.offset + 1);
      writeFileSync(path.join(cp, '_metadata'), unread);
      const again = await runner.run(['inspect', cp, '--format', 'json'], 60_000);
      expect(again.code).toBe(0);
      const reread = JSON.parse(again.stdout) as {
        summary: { streamsNotRead: number };
        operators: { id: string; streamsNotRead: { subtask: number; scope: string; reason: string }[] }[];
      };
      expect(reread.summary.streamsNotRead).toBe(1);
      expect(reread.operators.find((o) => o.id === REPLAYED)!.streamsNotRead).toEqual([
        {
          subtask: subtask.index,
          scope: 'keyed',
          reason: expect.stringMatching(
            new RegExp(
              `^subtask ${subtask.index}: a state's changelog META record could not be read: expected state meta info version 6 or 7 in a changelog META record, found \\d+ — at chk/_metadata, offset ${record.offset + 1} `,
            ),
          ),
        },
      ]);
    } finally {
      await runner.close();
      scratch.remove();
    }
  });
});
