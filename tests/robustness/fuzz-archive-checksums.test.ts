/**
 * Checksums of archives: a STORED zip of the fixture savepoint with one byte of an entry changed
 * (its CRC-32 left as it was), and a .tar.gz whose gzip trailer is damaged, cut or missing, or
 * whose member is damaged. `_metadata` is read whole, so a damaged `_metadata` entry must end in
 * exit 2 naming the entry; a damaged gzip member in exit 2 naming the member; a damaged state
 * entry at least never in an internal error (a scan that reads it from its start reports it).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { describeSummary, FIXTURE_SAVEPOINT, FULL, makeScratchDir, runFuzzCases, savepointCommand, type FuzzCase } from './fuzz-workspace';
import { generateTarArchive } from './generate-tar-archives';
import { judgeBadInputRun, judgeNoInternalError } from './run-cli-cases';
import { createSeededRandom } from './seeded-random';

const SEED = 0xc4c32;
const PER_KIND = FULL ? 30 : 4;

/** Where each entry's data starts in a zip fflate wrote (local header: 30 bytes, name, extra). */
function entryDataOffsets(zip: Uint8Array): Map<string, { start: number; size: number }> {
  const out = new Map<string, { start: number; size: number }>();
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let p = 0;
  while (p + 30 <= zip.length && view.getUint32(p, true) === 0x04034b50) {
    const size = view.getUint32(p + 18, true);
    const nameLength = view.getUint16(p + 26, true);
    const extraLength = view.getUint16(p + 28, true);
    const name = new TextDecoder().decode(zip.subarray(p + 30, p + 30 + nameLength));
    const start = p + 30 + nameLength + extraLength;
    out.set(name, { start, size });
    p = start + size;
  }
  return out;
}

describe('fuzz: archive checksums', () => {
  it(`${3 * PER_KIND} cases: a damaged STORED _metadata or gzip member is named; nothing ends in an internal error`, async () => {
    const scratch = makeScratchDir('checksums');
    try {
      const names = readdirSync(FIXTURE_SAVEPOINT).sort();
      const files = names.map((name) => ({ path: name, bytes: new Uint8Array(readFileSync(path.join(FIXTURE_SAVEPOINT, name))) }));
      const zip = zipSync(Object.fromEntries(files.map((f) => [`sp/${f.path}`, f.bytes])), { level: 0 });
      const offsets = entryDataOffsets(zip);
      const rnd = createSeededRandom(SEED);
      const cases: FuzzCase[] = [];
      let i = 0;
      for (let k = 0; k < PER_KIND; k++, i++) {
        const entry = 'sp/_metadata';
        const { start, size } = offsets.get(entry)!;
        const at = start + rnd.int(size);
        const damaged = zip.slice();
        damaged[at] ^= 1 << rnd.int(8);
        const input = path.join(scratch.dir, `case-${i}.zip`);
        const index = i;
        cases.push({
          name: `checksums #${index} (seed ${SEED}): STORED ${entry}, a bit of byte ${at} flipped`,
          prepare: () => (writeFileSync(input, damaged), savepointCommand(index, input)),
          judge: (run) =>
            judgeBadInputRun(
              run,
              /expected CRC-32 0x[0-9a-f]{8} for '[^']*sp\/_metadata', found 0x[0-9a-f]{8}: the entry is damaged — at [^\n]*\.zip, offset \d+/,
            ),
        });
      }
      for (let k = 0; k < PER_KIND; k++, i++) {
        const entries = [...offsets.keys()].filter((n) => n !== 'sp/_metadata');
        const entry = entries[rnd.int(entries.length)]!;
        const { start, size } = offsets.get(entry)!;
        const damaged = zip.slice();
        damaged[start + rnd.int(size)] ^= 0xff;
        const input = path.join(scratch.dir, `case-${i}.zip`);
        const index = i;
        cases.push({
          name: `checksums #${index} (seed ${SEED}): STORED state entry ${entry}, one byte inverted`,
          prepare: () => (writeFileSync(input, damaged), ['stats', input, '--workers', '1']),
          judge: judgeNoInternalError,
        });
      }
      for (let k = 0; k < PER_KIND; k++, i++) {
        // a readable tar of the savepoint (some extra members), gzipped here: its trailer is what is damaged
        let tar = generateTarArchive(files, 'many-members', rnd, 1 + rnd.int(20));
        while (tar.label.endsWith('gzipped')) tar = generateTarArchive(files, 'many-members', rnd, 1 + rnd.int(20));
        const gz = gzipSync(tar.bytes);
        const how = rnd.int(4);
        let damaged: Uint8Array;
        let label: string;
        if (how === 0) {
          damaged = gz.slice();
          damaged[gz.length - 8 + rnd.int(4)] ^= 1;
          label = 'CRC-32 of the trailer changed';
        } else if (how === 1) {
          damaged = gz.slice();
          damaged[gz.length - 4 + rnd.int(4)] ^= 1;
          label = 'size of the trailer changed';
        } else if (how === 2) {
          const cut = 1 + rnd.int(8);
          damaged = gz.subarray(0, gz.length - cut);
          label = `the last ${cut} bytes (trailer) cut`;
        } else {
          damaged = gz.slice();
          label = 'a bit of the compressed data flipped';
          damaged[10 + rnd.int(gz.length - 18)] ^= 1 << rnd.int(8);
        }
        const input = path.join(scratch.dir, `case-${i}.tgz`);
        const index = i;
        cases.push({
          name: `checksums #${index} (seed ${SEED}): .tar.gz, ${label}`,
          prepare: () => (writeFileSync(input, damaged), savepointCommand(index, input)),
          // a flipped bit in the DEFLATE data may also break the stream itself (corrupt data) before the trailer is reached
          judge: (run) =>
            judgeBadInputRun(
              run,
              how === 3
                ? /gzip member #\d+[^\n]*— at [^\n]*offset \d+|tar[^\n]*offset \d+/
                : /expected gzip member #1 \(from offset 0\) to end with [^\n]* — at [^\n]*\.tgz, offset \d+/,
            ),
        });
      }
      const summary = await runFuzzCases(cases);
      console.log(describeSummary('checksum fuzz', summary));
      expect(summary.failures).toEqual([]);
    } finally {
      scratch.remove();
    }
  });
});
