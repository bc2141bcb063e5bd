import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../io';
import { mergeSstEntries } from './merge-sst-entries';
import { openSstTable, TYPE_DELETION, TYPE_MERGE, TYPE_SINGLE_DELETION, TYPE_VALUE } from './open-sst-table';
import { writeSstTable, type SstWriteOptions, type WrittenEntry } from './write-rocksdb-files';

const text = (s: string) => Uint8Array.from([...s].map((c) => c.charCodeAt(0)));
const e = (k: string, sequence: number, type: number, v = ''): WrittenEntry => ({ userKey: text(k), sequence, type, value: text(v) });

async function merged(files: WrittenEntry[][], options: SstWriteOptions[] = []) {
  const tables = await Promise.all(
    files.map((f, i) => openSstTable(bytesSource(`00000${i}.sst`, writeSstTable(f, { blockEntries: 2, ...options[i] })), `00000${i}.sst`)),
  );
  const out: string[] = [];
  for await (const b of mergeSstEntries(
    tables.map((t) => t.cursor()),
    tables.flatMap((t) => t.rangeTombstones),
  ))
    for (const m of b) out.push(`${String.fromCharCode(...m.userKey)}=${String.fromCharCode(...m.value)}`);
  return out;
}

describe('mergeSstEntries', () => {
  it('newest sequence wins across files; deletions and single deletions remove; merge operands append with "," as Flink\'s ListState writes them', async () => {
    const older = [
      e('a', 1, TYPE_VALUE, 'a1'),
      e('b', 2, TYPE_VALUE, 'b1'),
      e('c', 3, TYPE_VALUE, 'c1'),
      e('d', 4, TYPE_VALUE, 'x'),
      e('f', 5, TYPE_MERGE, 'f1'),
      e('g', 6, TYPE_VALUE, 'g1'),
    ];
    const newer = [
      e('a', 10, TYPE_VALUE, 'a2'),
      e('b', 11, TYPE_DELETION),
      e('c', 13, TYPE_MERGE, 'c3'),
      e('c', 12, TYPE_MERGE, 'c2'),
      e('d', 14, TYPE_SINGLE_DELETION),
      e('e', 15, TYPE_MERGE, 'e1'),
      e('f', 16, TYPE_MERGE, 'f2'),
      e('g', 18, TYPE_MERGE, 'g3'),
      e('g', 17, TYPE_DELETION),
    ];
    expect(await merged([older, newer])).toEqual(['a=a2', 'c=c1,c2,c3', 'e=e1', 'f=f1,f2', 'g=g3']);
    // the order of the files does not matter: sequence numbers decide
    expect(await merged([newer, older])).toEqual(['a=a2', 'c=c1,c2,c3', 'e=e1', 'f=f1,f2', 'g=g3']);
  });

  it('a range deletion removes the older versions of the keys it covers, not the newer ones', async () => {
    const older = [e('a', 1, TYPE_VALUE, 'a1'), e('b', 2, TYPE_VALUE, 'b1'), e('c', 3, TYPE_VALUE, 'c1'), e('d', 4, TYPE_VALUE, 'd1')];
    const newer = [e('b', 30, TYPE_MERGE, 'b2'), e('c', 31, TYPE_VALUE, 'c2')];
    const withTombstone: SstWriteOptions = { rangeDeletions: [{ start: text('b'), end: text('d'), sequence: 20 }] };
    expect(await merged([older, newer], [{}, withTombstone])).toEqual(['a=a1', 'b=b2', 'c=c2', 'd=d1']);
    expect(await merged([older], [withTombstone])).toEqual(['a=a1', 'd=d1']);
  });

  it('refuses a value type Flink does not write (a blob index), located', async () => {
    await expect(merged([[e('a', 1, 0x11, 'x')]])).rejects.toThrow(
      /^expected a value, merge operand or deletion in an SST file of Flink's state, found a blob index — at 000000\.sst, offset 12 \(0xc\)$/,
    );
  });
});

describe('SstMerge over cursors (randomized against a model of newest-wins and list merges)', () => {
  it('gives what a model of the versions gives, with blocks of 1–3 entries (loads in the middle of a key), with and without reused buffers', async () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 30; round++) {
      const files: WrittenEntry[][] = [[], [], []];
      const versions = new Map<string, { sequence: number; type: number; value: string }[]>();
      let sequence = 1;
      for (let k = 0; k < 40; k++) {
        const key = `k${String(rand(25)).padStart(2, '0')}`;
        const type = [TYPE_VALUE, TYPE_MERGE, TYPE_MERGE, TYPE_DELETION][rand(4)]!;
        const value = type === TYPE_DELETION ? '' : `v${sequence}`;
        const v = { sequence: sequence++, type, value };
        versions.set(key, [...(versions.get(key) ?? []), v]);
        files[rand(3)]!.push(e(key, v.sequence, v.type, v.value));
      }
      for (const f of files)
        f.sort((a, b) =>
          String.fromCharCode(...a.userKey) < String.fromCharCode(...b.userKey)
            ? -1
            : String.fromCharCode(...a.userKey) > String.fromCharCode(...b.userKey)
              ? 1
              : b.sequence - a.sequence,
        );
      const expected: string[] = [];
      for (const key of [...versions.keys()].sort()) {
        const newestFirst = [...versions.get(key)!].sort((a, b) => b.sequence - a.sequence);
        const operands: string[] = [];
        let base: string | undefined;
        for (const v of newestFirst) {
          if (v.type === TYPE_MERGE) operands.push(v.value);
          else {
            if (v.type === TYPE_VALUE) base = v.value;
            break;
          }
        }
        if (operands.length === 0 && base === undefined) continue;
        expected.push(`${key}=${[...(base === undefined ? [] : [base]), ...operands.reverse()].join(',')}`);
      }
      const nonEmpty = files.filter((f) => f.length > 0);
      for (const reuse of [false, true]) {
        const tables = await Promise.all(
          nonEmpty.map((f, i) =>
            openSstTable(
              bytesSource(`00000${i}.sst`, writeSstTable(f, { blockEntries: 1 + (round % 3), compression: round % 2 === 0 ? 1 : 0 })),
              `00000${i}.sst`,
            ),
          ),
        );
        const out: string[] = [];
        for await (const b of mergeSstEntries(
          tables.map((t) => t.cursor(undefined, { reuseBlocks: reuse })),
          [],
          reuse,
        ))
          for (const m of b) out.push(`${String.fromCharCode(...m.userKey)}=${String.fromCharCode(...m.value)}`);
        expect(out, `round ${round}, reused buffers: ${reuse}`).toEqual(expected);
      }
    }
  });
});
