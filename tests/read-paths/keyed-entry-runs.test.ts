/**
 * readCanonicalKeyedEntryRuns (one lazy run per key-group block, used by countStateEntries) yields
 * exactly readCanonicalKeyedEntries' entries — same objects' contents, same property order, same
 * errors at the same offsets — and countStateEntries counts the same with it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDecodeError } from '../../src/core/io';
import { createSnapshotRegistry, openSavepoint, type StateEntry } from '../../src/core/flink';
import { listKeyGroupBlocks, readCanonicalKeyedEntryRuns } from '../../src/core/flink/keyed/read-canonical-keyed-entries';
import { readCanonicalKeyedEntries } from '../helpers/read-keyed-entries';
import { readSubtaskKeyedStream } from '../../src/core/flink/headers/read-subtask-state-headers';
import { type KeyedStreamInput } from '../../src/core/flink/keyed/keyed-stream-types';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { openNodeInput } from '../../src/cli/sources';
import { generateBenchSavepoint } from '../../bench/generate/generate-bench-savepoint';

async function collect(entries: AsyncIterable<StateEntry>): Promise<{ entries: StateEntry[]; error?: string }> {
  const out: StateEntry[] = [];
  try {
    for await (const e of entries) out.push(e);
  } catch (e) {
    if (!isDecodeError(e)) throw e;
    return { entries: out, error: `${e.code} ${e.file} @${e.offset}: ${e.message}` };
  }
  return { entries: out };
}

async function collectRuns(runs: AsyncIterable<Iterable<StateEntry>>): Promise<{ entries: StateEntry[]; runs: number[][]; error?: string }> {
  const out: StateEntry[] = [];
  const groups: number[][] = [];
  try {
    for await (const run of runs) {
      const keyGroups: number[] = [];
      groups.push(keyGroups);
      for (const e of run) {
        out.push(e);
        keyGroups.push(e.keyGroup);
      }
    }
  } catch (e) {
    if (!isDecodeError(e)) throw e;
    return { entries: out, runs: groups, error: `${e.code} ${e.file} @${e.offset}: ${e.message}` };
  }
  return { entries: out, runs: groups };
}

describe('canonical keyed entries in runs per key-group block', () => {
  let root = '';
  let input: KeyedStreamInput;
  let header: Parameters<typeof readCanonicalKeyedEntries>[1];
  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'perf-runs-'));
    const dir = path.join(root, 'sp');
    generateBenchSavepoint({ dir, targetBytes: 512 * 1024, parallelism: 1 });
    const registry = createSnapshotRegistry();
    registerProtobufSnapshotReaders(registry);
    const opened = await openSavepoint(await openNodeInput(dir));
    const op = opened.metadata.operators.find((o) => o.subtasks.length > 0)!;
    const keyed = await readSubtaskKeyedStream(opened, op, op.subtasks[0]!, registry);
    input = keyed!.input!;
    header = keyed!.header!;
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('the same entries, property order included, one run per block in block order', async () => {
    const one = await collect(readCanonicalKeyedEntries(input, header));
    const runs = await collectRuns(readCanonicalKeyedEntryRuns(input, header));
    expect(one.error).toBeUndefined();
    expect(runs.error).toBeUndefined();
    expect(one.entries.length).toBeGreaterThan(100);
    expect(runs.entries).toEqual(one.entries);
    expect(runs.entries.map((e) => Object.keys(e).join())).toEqual(one.entries.map((e) => Object.keys(e).join()));
    expect(Object.keys(one.entries[0]!)).toEqual(['operatorId', 'state', 'subtask', 'keyGroup', 'value', 'key', 'namespace', 'file', 'keyRange', 'valueRange']);
    const blocks = listKeyGroupBlocks(input);
    expect(runs.runs.length).toBe(blocks.length);
    runs.runs.forEach((groups, i) => expect(new Set(groups)).toEqual(new Set([blocks[i]!.keyGroup])));
  });

  it('a corrupt stream fails with the same error at the same offset, after the same entries (and one state only when asked)', async () => {
    // numbering the key groups one higher makes every key-group prefix wrong
    const shifted = { ...input, range: { ...input.range, start: input.range.start + 1 } };
    const one = await collect(readCanonicalKeyedEntries(shifted, header));
    const runs = await collectRuns(readCanonicalKeyedEntryRuns(shifted, header));
    expect(one.error).toMatch(/^invalid-value .* @\d+: .*expected the key-group prefix of key group \d+, found \d+/);
    expect(runs.error).toBe(one.error);
    expect(runs.entries).toEqual(one.entries);
    const state = header.states[0]!.name;
    const onlyOne = await collectRuns(readCanonicalKeyedEntryRuns(input, header, { state }));
    expect(onlyOne.entries).toEqual((await collect(readCanonicalKeyedEntries(input, header, { state }))).entries);
    expect(new Set(onlyOne.entries.map((e) => e.state))).toEqual(new Set([state]));
  });
});
