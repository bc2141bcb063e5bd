/**
 * What a page read of operator state reads and decodes: the rows before the page are skipped (their
 * Protobuf values are framed, not decoded), and a subtask's state header is read once, not again
 * for every page.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProtobufValueCodec } from '../core/protobuf';
import type { InputFile } from './inspector';
import { LocalInspector } from './local-inspector';
import { requireCommitted } from '../../tests/helpers/committed-data';

const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint');
const OPERATOR = '6d821971c3bfd7ae2c972e89d7414f7c';
const STATE = 'processed-events';

/** The fixture's files, counting the bytes read from the state files. */
function countedFiles(counter: { bytes: number }): InputFile[] {
  return readdirSync(SAVEPOINT).map((n) => {
    const blob = new Blob([readFileSync(path.join(SAVEPOINT, n))]);
    if (n === '_metadata') return { path: `sp/${n}`, blob };
    const counted = {
      size: blob.size,
      slice: (start = 0, end = blob.size) => ({
        arrayBuffer: () => {
          counter.bytes += end - start;
          return blob.slice(start, end).arrayBuffer();
        },
      }),
    } as unknown as Blob;
    return { path: `sp/${n}`, blob: counted };
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

requireCommitted(path.join(SAVEPOINT, '_metadata'));

describe('page reads of operator state (flink-1.20/hashmap/canonical)', () => {
  it('decodes only the rows of the page: rows before it are skipped', async () => {
    const inspector = new LocalInspector();
    await inspector.open({ kind: 'files', files: countedFiles({ bytes: 0 }) });
    const stats = await inspector.getStateStats({ operatorId: OPERATOR, state: STATE });
    const inFirstSubtask = stats.bySubtask.find((b) => b.id === 0)!.entries;
    expect(inFirstSubtask).toBeGreaterThan(5);
    const decode = vi.spyOn(ProtobufValueCodec.prototype, 'decodeDetailed');
    const page = await inspector.listEntries({ operatorId: OPERATOR, state: STATE, offset: inFirstSubtask - 2, limit: 2 });
    expect(page.rows.map((r) => [r.index, r.subtask])).toEqual([
      [inFirstSubtask - 2, 0],
      [inFirstSubtask - 1, 0],
    ]);
    expect(decode).toHaveBeenCalledTimes(2);
  });

  it("reads a subtask's operator state header once: a second page of the subtask reads just its rows", async () => {
    const counter = { bytes: 0 };
    const inspector = new LocalInspector();
    await inspector.open({ kind: 'files', files: countedFiles(counter) });
    await inspector.getStateStats({ operatorId: OPERATOR, state: STATE });
    await inspector.listEntries({ operatorId: OPERATOR, state: STATE, offset: 1, limit: 1 });
    const before = counter.bytes;
    const page = await inspector.listEntries({ operatorId: OPERATOR, state: STATE, offset: 3, limit: 2 });
    const read = counter.bytes - before;
    const all = await inspector.listEntries({ operatorId: OPERATOR, state: STATE, offset: 0, limit: 5 });
    expect(page.rows).toEqual(all.rows.slice(3, 5));
    expect(all.rows.every((r) => r.subtask === 0)).toBe(true);
    // list elements are read from their offsets, the first alone, then in runs of at most twice the bytes
    // of the run before: the elements of rows 0..4 of the subtask and less than as much again, no header
    const rows = all.rows.reduce((n, r) => n + r.size, 0);
    expect(read).toBeGreaterThanOrEqual(rows);
    expect(read).toBeLessThan(2 * rows);
  });
});
