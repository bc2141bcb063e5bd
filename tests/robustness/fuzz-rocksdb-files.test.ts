/**
 * RocksDB native state over mutated files: the Flink 2.3 native fixture with one of its RocksDB files
 * (an SST file, a MANIFEST, CURRENT) changed — bytes flipped, a range zeroed, the file cut short. Every
 * run ends in a result or a located DecodeError: no internal error, no stack, no hang, bounded memory;
 * and a dump never passes off a corrupt table as read (exit 0 only when the mutation hit bytes the read
 * does not use, or checks, such as a filter block).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeSummary, FULL, makeScratchDir, runFuzzCases, type FuzzCase } from './fuzz-workspace';
import { judgeNoInternalError, LOCATED, type CliRun } from './run-cli-cases';
import { createSeededRandom } from './seeded-random';
import { cpSync } from 'node:fs';

const SEED = 0x5a7b1e;
const CASES = FULL ? 300 : 36;
const SOURCE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/rocksdb/native/savepoint');

function kindOf(bytes: Uint8Array): 'sst' | 'manifest' | 'current' | undefined {
  if (bytes.length >= 8 && Buffer.from(bytes.subarray(bytes.length - 8)).toString('hex') === 'f7cff485b741e288') return 'sst';
  if (bytes.length === 16 && Buffer.from(bytes).toString('latin1').startsWith('MANIFEST-')) return 'current';
  if (bytes.length > 7 && bytes.length < 4096 && bytes[6] === 1 && Buffer.from(bytes).toString('latin1').includes('leveldb.BytewiseComparator'))
    return 'manifest';
  return undefined;
}

describe('fuzz: mutated RocksDB files of a native savepoint', () => {
  it(`${CASES} cases end in a result or a located error`, async () => {
    const scratch = makeScratchDir('rocksdb');
    try {
      const sp = path.join(scratch.dir, 'sp');
      cpSync(SOURCE, sp, { recursive: true });
      const targets = readdirSync(sp)
        .map((name) => ({ name, bytes: new Uint8Array(readFileSync(path.join(sp, name))) }))
        .map((f) => ({ ...f, kind: kindOf(f.bytes) }))
        .filter((f) => f.kind !== undefined) as { name: string; bytes: Uint8Array; kind: 'sst' | 'manifest' | 'current' }[];
      expect(new Set(targets.map((t) => t.kind))).toEqual(new Set(['sst', 'manifest', 'current']));
      const rnd = createSeededRandom(SEED);
      const judge = (run: CliRun): string | undefined => {
        const why = judgeNoInternalError(run);
        if (why) return why;
        if (run.code === 2 && !LOCATED.test(run.stderr)) return `exit 2 without a location: ${run.stderr.slice(0, 300)}`;
        if (run.code !== 0 && run.code !== 2) return `exit ${run.code}`;
        return undefined;
      };
      const cases: FuzzCase[] = [];
      for (let i = 0; i < CASES; i++) {
        const t = targets[rnd.int(targets.length)]!;
        const how = rnd.int(3);
        const copy = t.bytes.slice();
        let label: string;
        let bytes: Uint8Array;
        if (how === 0) {
          const n = 1 + rnd.int(4);
          for (let k = 0; k < n; k++) copy[rnd.int(copy.length)] ^= 1 << rnd.int(8);
          bytes = copy;
          label = `${n} bit(s) flipped`;
        } else if (how === 1) {
          const at = rnd.int(copy.length);
          const len = 1 + rnd.int(Math.min(64, copy.length - at));
          copy.fill(0, at, at + len);
          bytes = copy;
          label = `${len} bytes zeroed at ${at}`;
        } else {
          const at = rnd.int(copy.length);
          bytes = copy.subarray(0, at);
          label = `cut to ${at} bytes`;
        }
        const argv = i % 2 === 0 ? ['dump', sp, '--operator', 'int-keyed', '--state', 'last-event', '--format', 'json'] : ['inspect', sp, '--format', 'json'];
        cases.push({
          name: `rocksdb #${i} (seed ${SEED}): ${t.kind} ${t.name}: ${label}`,
          prepare: () => {
            for (const o of targets) writeFileSync(path.join(sp, o.name), o === t ? bytes : o.bytes);
            return argv;
          },
          judge,
        });
      }
      const summary = await runFuzzCases(cases);
      console.log(describeSummary('rocksdb fuzz', summary));
      expect(summary.failures).toEqual([]);
    } finally {
      scratch.remove();
    }
  });
});
