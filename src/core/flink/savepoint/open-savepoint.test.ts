import { describe, expect, it } from 'vitest';
import { bytesSource, isDecodeError, type ByteSource, type DecodeError, type SavepointFiles } from '../../io';
import { openSavepoint, resolveStreamHandle } from './open-savepoint';
import type { KeyedStateHandle, OperatorState, StreamHandle, SubtaskState } from '../metadata/metadata-types';
import { writeCheckpointMetadata } from '../metadata/write-checkpoint-metadata';

const OP = '6730ef7375fb60f9d9bbdfdfd174d803';

function subtask(index: number, partial: Partial<SubtaskState>): SubtaskState {
  return {
    index,
    finished: false,
    managedOperatorState: null,
    rawOperatorState: null,
    managedKeyedState: null,
    rawKeyedState: null,
    inputChannelStateCount: 0,
    resultSubpartitionStateCount: 0,
    ...partial,
  };
}
function savepoint(operators: OperatorState[], files: Record<string, Uint8Array>): SavepointFiles {
  const metadata = bytesSource('sp/_metadata', writeCheckpointMetadata({ version: 3, checkpointId: 5n, operators }));
  const sources = new Map<string, ByteSource>(Object.entries(files).map(([n, b]) => [n, bytesSource(`sp/${n}`, b)]));
  return { name: 'sp', metadata, files: [metadata, ...sources.values()], resolveRelative: (p) => sources.get(p), warnings: [] };
}
async function rejection(p: Promise<unknown>): Promise<DecodeError> {
  try {
    await p;
  } catch (e) {
    if (isDecodeError(e)) return e;
    throw e;
  }
  throw new Error('expected a DecodeError');
}
const keyedOn = (delegate: StreamHandle): KeyedStateHandle => ({ kind: 'key-groups', code: 7, range: { start: 0, end: 0 }, offsets: [0], delegate });

describe('openSavepoint', () => {
  it('reports a missing relative file with its name, operator, subtask and role', async () => {
    const files = savepoint(
      [
        {
          id: OP,
          parallelism: 4,
          maxParallelism: 4,
          coordinatorState: null,
          fullyFinished: false,
          subtasks: [subtask(2, { managedKeyedState: keyedOn({ kind: 'relative-file', relativePath: 'abc-uuid', size: 10 }) })],
        },
      ],
      {},
    );
    const opened = await openSavepoint(files);
    expect(opened.totals.missingFiles).toEqual([{ name: 'abc-uuid', referencedBy: [`operator ${OP} subtask 2 managed keyed state`] }]);
    const h = opened.metadata.operators[0]!.subtasks[0]!.managedKeyedState;
    if (h?.kind !== 'key-groups' || !h.delegate) throw new Error('no handle');
    let e: DecodeError | undefined;
    try {
      opened.resolveStreamHandle(h.delegate, { operatorId: OP, subtask: 2, role: 'managed keyed state' });
    } catch (err) {
      if (isDecodeError(err)) e = err;
    }
    expect(e?.code).toBe('missing-file');
    expect(e?.message).toBe(
      'expected state file "abc-uuid" next to _metadata in sp, found no such file: the savepoint is incomplete (copy the whole folder) — at sp/_metadata, offset 83 (0x53) [operator 6730ef73… / subtask 2 / managed keyed state]',
    );
    // the offset is the one of the handle's path string in `_metadata`: a u16 length, then the name
    const metadataBytes = await files.metadata.read(0, files.metadata.size);
    expect(new TextDecoder().decode(metadataBytes.subarray(83 + 2, 83 + 2 + 'abc-uuid'.length))).toBe('abc-uuid');
    expect(opened.warnings).toEqual([e?.message]);
  });

  it('words a missing file for a lone _metadata opened as the input: no "next to _metadata in _metadata"', async () => {
    const metadata = bytesSource(
      '_metadata',
      writeCheckpointMetadata({
        version: 3,
        checkpointId: 5n,
        operators: [
          {
            id: OP,
            parallelism: 4,
            maxParallelism: 4,
            coordinatorState: null,
            fullyFinished: false,
            subtasks: [subtask(2, { managedKeyedState: keyedOn({ kind: 'relative-file', relativePath: 'abc-uuid', size: 10 }) })],
          },
        ],
      }),
    );
    const files: SavepointFiles = { name: '_metadata', metadata, files: [metadata], resolveRelative: () => undefined, warnings: [] };
    const opened = await openSavepoint(files);
    const h = opened.metadata.operators[0]!.subtasks[0]!.managedKeyedState;
    if (h?.kind !== 'key-groups' || !h.delegate) throw new Error('no handle');
    const e = await rejection(
      Promise.resolve().then(() => opened.resolveStreamHandle(h.delegate!, { operatorId: OP, subtask: 2, role: 'managed keyed state' })),
    );
    expect(e.message).toBe(
      'expected state file "abc-uuid" next to _metadata, found no such file: only the _metadata file was opened (open the savepoint\'s folder, or an archive of it, to read its state files) — at _metadata, offset 83 (0x53) [operator 6730ef73… / subtask 2 / managed keyed state]',
    );
    // a _metadata opened by its path (the CLI's `inspect path/to/_metadata`) is worded the same, naming the path once
    const byPath: SavepointFiles = { ...files, name: 'jobs/sp/_metadata' };
    const opened2 = await openSavepoint(byPath);
    const e2 = await rejection(
      Promise.resolve().then(() => opened2.resolveStreamHandle(h.delegate!, { operatorId: OP, subtask: 2, role: 'managed keyed state' })),
    );
    expect(e2.message).toMatch(/^expected state file "abc-uuid" next to jobs\/sp\/_metadata, found no such file: only the _metadata file was opened /);
  });

  it('resolves an absolute path (code 2) by base name, with a warning', async () => {
    const data = new Uint8Array([1, 2, 3, 4, 5]);
    const files = savepoint(
      [
        {
          id: OP,
          parallelism: 1,
          maxParallelism: 1,
          coordinatorState: null,
          fullyFinished: false,
          subtasks: [subtask(0, { managedKeyedState: keyedOn({ kind: 'file', path: 's3://bucket/chk-17/f-uuid', size: 5 }) })],
        },
      ],
      { 'f-uuid': data },
    );
    const opened = await openSavepoint(files);
    expect(opened.warnings).toEqual(['absolute path "s3://bucket/chk-17/f-uuid" resolved by base name "f-uuid" next to _metadata']);
    expect(opened.totals.referencedFiles).toEqual([{ name: 'sp/f-uuid', size: 5, referencedBy: [`operator ${OP} subtask 0 managed keyed state`] }]);
    expect(opened.totals.totalSize).toBe(opened.totals.metadataSize + 5);
  });

  it('resolves a segment handle to its byte range of the physical file, keeping absolute offsets', async () => {
    const physical = new Uint8Array(100).map((_, i) => i);
    const files = savepoint([], { merged: physical });
    const r = resolveStreamHandle(files, { kind: 'segment-file', physicalPath: 'hdfs:/x/merged', logicalFileId: 'l', start: 40, size: 10, scope: 'EXCLUSIVE' });
    expect([r.file, r.baseOffset, r.source.size]).toEqual(['sp/merged', 40, 10]);
    expect([...(await r.source.read(2, 3))]).toEqual([42, 43, 44]);
    const e = await rejection(r.source.read(8, 5));
    expect(e.message).toBe('expected 5 bytes at offset 8, found a 10-byte segment — at sp/merged, offset 48 (0x30)');
    const tooLong = (() => {
      try {
        resolveStreamHandle(files, { kind: 'segment-file', physicalPath: 'merged', logicalFileId: 'l', start: 95, size: 10, scope: 'SHARED' });
      } catch (err) {
        return isDecodeError(err) ? err.message : String(err);
      }
      return 'no error';
    })();
    expect(tooLong).toBe('expected a 10-byte segment at offset 95 of sp/merged, found a 100-byte file — at sp/merged, offset 95 (0x5f)');
  });

  it('resolves legacy key-groups handles through their delegate and empty segments to no bytes', async () => {
    const files = savepoint([], { f: new Uint8Array(3) });
    expect(
      resolveStreamHandle(files, {
        kind: 'legacy-key-groups',
        range: { start: 0, end: 0 },
        offsets: [0],
        delegate: { kind: 'relative-file', relativePath: 'f', size: 3 },
      }).source.name,
    ).toBe('sp/f');
    expect(resolveStreamHandle(files, { kind: 'empty-segment' }).source.size).toBe(0);
  });

  it('sizes per operator and subtask (file size when the handle says -1), and lists unreferenced files', async () => {
    const files = savepoint(
      [
        {
          id: OP,
          parallelism: 2,
          maxParallelism: 2,
          coordinatorState: { kind: 'inline', name: 'coord', size: 2, offset: 0, data: new Uint8Array([1, 2]) },
          fullyFinished: false,
          subtasks: [
            subtask(0, { managedKeyedState: keyedOn({ kind: 'relative-file', relativePath: 'a', size: -1 }) }),
            subtask(1, {
              managedOperatorState: {
                kind: 'operator',
                code: 4,
                states: [],
                delegate: { kind: 'inline', name: 'x', size: 3, offset: 0, data: new Uint8Array(3) },
              },
            }),
          ],
        },
      ],
      { a: new Uint8Array(7), stray: new Uint8Array(1) },
    );
    const { totals } = await openSavepoint(files);
    expect(totals.operators).toEqual([
      {
        id: OP,
        stateSize: 12,
        subtasks: [
          { index: 0, stateSize: 7, handles: 1 },
          { index: 1, stateSize: 3, handles: 1 },
        ],
      },
    ]);
    expect([totals.stateSize, totals.inlineSize]).toEqual([12, 5]);
    expect(totals.unreferencedFiles).toEqual(['sp/stray']);
  });

  it('passes _metadata decode errors through with the source name as file', async () => {
    const bad: SavepointFiles = {
      name: 'x',
      metadata: bytesSource('x/_metadata', new Uint8Array([0x50, 0x4b, 3, 4, 0, 0])),
      files: [],
      resolveRelative: () => undefined,
      warnings: [],
    };
    const e = await rejection(openSavepoint(bad));
    expect(e.code).toBe('wrong-file-kind');
    expect(e.file).toBe('x/_metadata');
  });
});
