/**
 * scanState, the one walk behind every value read: on the committed fixtures (canonical keyed state
 * compressed and not, heap, operator and broadcast state) a `frame` scan with rows read in place
 * visits the same entries, in the same order, as a `decode` scan, each Protobuf frame holding exactly
 * the bytes its decoded message came from; a `skip` scan visits them too; a limit stops at exactly
 * that many entries of each state wherever it falls inside a block.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshotRegistry, inspectSavepoint, openSavepoint, scanState, type StateEntry, type ValueMode } from '../../src/core/flink';
import { readStateEntries } from '../helpers/read-state-entries';
import { listProtobufFrames, listProtobufValueDetails, registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { openFolderSavepoint } from '../helpers/open-folder-savepoint';
import { requireCommitted } from '../helpers/committed-data';

const ROOT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3');
const registry = createSnapshotRegistry();
registerProtobufSnapshotReaders(registry);
const open = (c: string) => openFolderSavepoint(path.join(ROOT, c, 'savepoint'));
const describeEntry = (e: Pick<StateEntry, 'subtask' | 'keyGroup' | 'state'>, offset: number) => `${e.subtask}|${e.keyGroup}|${e.state}|${offset}`;
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

requireCommitted(path.join(ROOT, 'hashmap/canonical/savepoint/_metadata'));

describe('scanState', () => {
  for (const c of ['hashmap/canonical', 'hashmap/native', 'rocksdb/canonical-compressed', 'rocksdb/canonical']) {
    it(`${c}: frame (rows in place), skip and decode scans visit the same entries; frames hold the decoded messages' bytes; limits cap each state`, async () => {
      const opened = await openSavepoint(open(c));
      const decoded: string[] = [];
      const messages: string[] = [];
      await scanState(
        opened,
        registry,
        {},
        {
          entry(e) {
            decoded.push(describeEntry(e, e.valueRange.offset));
            for (const d of listProtobufValueDetails(e.value)) messages.push(hex(d.frame));
          },
        },
        { values: { mode: 'decode' } },
      );
      const framed: string[] = [];
      const frames: string[] = [];
      let rows = 0;
      await scanState(
        opened,
        registry,
        {},
        {
          entry(e) {
            framed.push(describeEntry(e, e.valueRange.offset));
            for (const f of listProtobufFrames(e.value)) frames.push(hex(f.bytes.subarray(f.start, f.end)));
          },
          row(run, i, frame) {
            rows++;
            framed.push(describeEntry({ subtask: run.subtask, keyGroup: run.keyGroup, state: run.stateOf(i) }, run.baseOffset + run.valueStart(i)));
            if (frame) frames.push(hex(frame.bytes.subarray(frame.start, frame.end)));
          },
        },
        { values: { mode: 'frame' } },
      );
      const skipped: string[] = [];
      await scanState(
        opened,
        registry,
        {},
        { entry: (e) => void skipped.push(describeEntry(e, e.valueRange.offset)) },
        { values: { mode: 'skip' as ValueMode } },
      );
      expect(decoded.length).toBeGreaterThan(0);
      expect(framed).toEqual(decoded);
      expect(skipped).toEqual(decoded);
      expect(frames).toEqual(messages);
      expect(messages.length).toBeGreaterThan(0);
      if (c !== 'hashmap/native') expect(rows).toBeGreaterThan(0);

      const ins = await inspectSavepoint(await openSavepoint(open(c)), registry);
      for (const op of ins.operators) {
        for (const s of op.states.filter((x) => x.status === 'ok')) {
          const options = { operatorId: op.id, state: s.name };
          const all: string[] = [];
          for await (const e of readStateEntries(open(c), registry, options)) all.push(describeEntry(e, e.valueRange.offset));
          for (const limit of [1, 2, 3, Math.max(1, all.length - 1), all.length + 1]) {
            const got: string[] = [];
            for await (const e of readStateEntries(open(c), registry, { ...options, limit })) got.push(describeEntry(e, e.valueRange.offset));
            expect(got, `${op.id}/${s.name} limit ${limit}`).toEqual(all.slice(0, limit));
          }
        }
      }
    });
  }
});
