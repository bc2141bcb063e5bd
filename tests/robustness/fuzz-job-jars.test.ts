/**
 * Job jars under structure-aware mutations of their generated outer classes (fixtures/job-jars, thin jar,
 * protobuf-java 4.36.2 gencode), re-zipped so the zip itself is sound: the constant pool (an entry's tag, the
 * pool's count, a Utf8 length, what an `ldc` loads) and the `<clinit>` bytecode that builds the descriptor (an
 * opcode the JVM does not define, the code length, an `aastore` of the String[] literal gone, the array's size,
 * the class cut inside its code). Each mutation makes a class the JVM would refuse to load or initialize, so
 * `compare --job-jar` and `check --job-jar` must end in exit 0, 1 or 2 (2 located), with no stack trace, in
 * bounded time and memory — and answer what the unmutated jar answers unless they say what they could not read.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { listInstructions } from '../../src/core/jar/list-instructions';
import { requireCommitted } from '../helpers/committed-data';
import { describeSummary, FULL, makeScratchDir, runFuzzCases, type FuzzCase } from './fuzz-workspace';
import { judgeAgainstBaseline, viewCheck } from './judge-against-baseline';
import { CliCaseRunner } from './run-cli-cases';
import { createSeededRandom, type SeededRandom } from './seeded-random';

const SEED = 0x6a6172;
const CASES = FULL ? 200 : 24;
const JAR = requireCommitted(path.resolve(process.cwd(), 'fixtures/job-jars/jars/thin-4.36.2.jar'));
const SAVEPOINT = requireCommitted(path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint'));
const CLASSES = ['dev/savepointinspector/fixtures/generated/EventMessages.class', 'dev/savepointinspector/fixtures/generated/CommonMessages.class'];

interface PoolEntry {
  index: number;
  at: number;
  tag: number;
}

interface ClassLayout {
  countAt: number;
  count: number;
  pool: PoolEntry[];
  /** the `<clinit>` Code attribute: where its code_length is, where the code starts, how long it is */
  codeLengthAt: number;
  codeAt: number;
  codeLength: number;
  /** each instruction of `<clinit>`: opcode and offset in the class file */
  instructions: { op: number; at: number }[];
}

const u2 = (b: Uint8Array, p: number) => (b[p]! << 8) | b[p + 1]!;
const u4 = (b: Uint8Array, p: number) => ((b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!) >>> 0;

/** The class file's constant pool and `<clinit>` code (JVMS §4), read here independently of src/core/jar. */
function layoutOf(b: Uint8Array): ClassLayout {
  const count = u2(b, 8);
  const pool: PoolEntry[] = [];
  const utf8 = new Map<number, string>();
  let p = 10;
  for (let i = 1; i < count; i++) {
    const tag = b[p]!;
    pool.push({ index: i, at: p, tag });
    if (tag === 1) {
      const len = u2(b, p + 1);
      utf8.set(i, Buffer.from(b.subarray(p + 3, p + 3 + len)).toString('latin1'));
      p += 3 + len;
    } else if (tag === 5 || tag === 6) {
      p += 9;
      i++;
    } else if ([7, 8, 16, 19, 20].includes(tag)) p += 3;
    else if (tag === 15) p += 4;
    else p += 5;
  }
  p += 6;
  p += 2 + 2 * u2(b, p);
  const skipMembers = (visit?: (nameIndex: number, attrsAt: number) => void) => {
    const n = u2(b, p);
    p += 2;
    for (let i = 0; i < n; i++) {
      const nameIndex = u2(b, p + 2);
      p += 6;
      visit?.(nameIndex, p);
      const attrs = u2(b, p);
      p += 2;
      for (let j = 0; j < attrs; j++) p += 6 + u4(b, p + 2);
    }
  };
  skipMembers();
  let codeAttr = -1;
  skipMembers((nameIndex, attrsAt) => {
    if (utf8.get(nameIndex) !== '<clinit>') return;
    let q = attrsAt + 2;
    for (let j = 0; j < u2(b, attrsAt); j++) {
      if (utf8.get(u2(b, q)) === 'Code') codeAttr = q;
      q += 6 + u4(b, q + 2);
    }
  });
  if (codeAttr < 0) throw new Error('no <clinit> Code attribute');
  const codeLengthAt = codeAttr + 10;
  const codeAt = codeLengthAt + 4;
  const codeLength = u4(b, codeLengthAt);
  const instructions: { op: number; at: number }[] = [];
  listInstructions(b.subarray(codeAt, codeAt + codeLength), codeAt, 'fixture', (op, pc) => instructions.push({ op, at: codeAt + pc }));
  return { countAt: 8, count, pool, codeLengthAt, codeAt, codeLength, instructions };
}

const LDC = 0x12;
const LDC_W = 0x13;
const AASTORE = 0x53;
const ANEWARRAY = 0xbd;

/** One mutation that makes the class unloadable: its bytes and what was done. */
function mutateClass(b: Uint8Array, l: ClassLayout, rnd: SeededRandom): [Uint8Array, string] {
  const out = b.slice();
  const pick = <T>(xs: readonly T[]): T => xs[rnd.int(xs.length)]!;
  const ldcs = l.instructions.filter((x) => x.op === LDC || x.op === LDC_W);
  switch (rnd.int(9)) {
    case 0: {
      const e = pick(l.pool);
      const to = pick([0, 2, 13, 14, 21, 0xff]);
      out[e.at] = to;
      return [out, `constant pool entry #${e.index} tag ${e.tag} → ${to}`];
    }
    case 1: {
      const to = pick([l.count + 1, l.count - 1, 0, 0xffff]);
      out[l.countAt] = to >>> 8;
      out[l.countAt + 1] = to & 0xff;
      return [out, `constant pool count ${l.count} → ${to}`];
    }
    case 2: {
      const e = pick(l.pool.filter((x) => x.tag === 1));
      const len = u2(b, e.at + 1);
      const to = pick([len + 1, len - 1, 0xffff]) & 0xffff;
      out[e.at + 1] = to >>> 8;
      out[e.at + 2] = to & 0xff;
      return [out, `Utf8 #${e.index} length ${len} → ${to}`];
    }
    case 3: {
      // an ldc of the descriptor literal that loads what no ldc may: index 0, past the pool, a Utf8, a NameAndType or a member ref
      const x = pick(ldcs);
      const bad = l.pool.filter((e) => [1, 9, 10, 11, 12].includes(e.tag)).map((e) => e.index);
      const to = pick([0, l.count, l.count + 7, ...bad.slice(0, 6)]);
      if (x.op === LDC && to > 0xff) {
        out[x.at + 1] = 0;
        return [out, `ldc at ${x.at} → #0`];
      }
      if (x.op === LDC) out[x.at + 1] = to;
      else {
        out[x.at + 1] = to >>> 8;
        out[x.at + 2] = to & 0xff;
      }
      return [out, `${x.op === LDC ? 'ldc' : 'ldc_w'} at ${x.at} → #${to}`];
    }
    case 4: {
      const x = pick(l.instructions);
      const to = pick([0xcb, 0xd4, 0xe7, 0xfd]);
      out[x.at] = to;
      return [out, `<clinit> opcode 0x${x.op.toString(16)} at ${x.at} → 0x${to.toString(16)} (not an opcode)`];
    }
    case 5: {
      const to = pick([l.codeLength + 1, l.codeLength + 1000, 0, 0x7fffffff]);
      out[l.codeLengthAt] = to >>> 24;
      out[l.codeLengthAt + 1] = (to >>> 16) & 0xff;
      out[l.codeLengthAt + 2] = (to >>> 8) & 0xff;
      out[l.codeLengthAt + 3] = to & 0xff;
      return [out, `<clinit> code_length ${l.codeLength} → ${to}`];
    }
    case 6: {
      // the String[] literal with an element never stored: the array keeps a null there (the JVM's verifier refuses the stack left behind)
      const stores = l.instructions.filter((x) => x.op === AASTORE);
      const x = pick(stores);
      out[x.at] = 0x00;
      return [out, `aastore at ${x.at} (of ${stores.length}) → nop`];
    }
    case 7: {
      // the array one element longer: a null part in the descriptor (internalBuildGeneratedFileFrom would throw)
      const i = l.instructions.findIndex((x) => x.op === ANEWARRAY);
      const size = l.instructions[i - 1]!;
      if (size.op >= 0x03 && size.op <= 0x07) {
        out[size.at] = size.op + 1;
        return [out, `String[] size iconst_${size.op - 3} → iconst_${size.op - 2}`];
      }
      if (size.op === 0x10) {
        out[size.at + 1] = b[size.at + 1]! + 1;
        return [out, `String[] size bipush ${b[size.at + 1]} → ${b[size.at + 1]! + 1}`];
      }
      const n = u2(b, size.at + 1) + 1;
      out[size.at + 1] = n >>> 8;
      out[size.at + 2] = n & 0xff;
      return [out, `String[] size sipush → ${n}`];
    }
    default: {
      const at = l.codeAt + rnd.int(l.codeLength);
      return [b.subarray(0, at), `the class cut at ${at}, inside <clinit>`];
    }
  }
}

describe('fuzz: constant pools and <clinit> of job jars, through compare --job-jar and check --job-jar', () => {
  it(`${CASES} cases answer as the unmutated jar does, or say what they could not read`, async () => {
    const scratch = makeScratchDir('jar');
    try {
      const entries = unzipSync(new Uint8Array(readFileSync(JAR)));
      const layouts = CLASSES.map((name) => ({ name, bytes: entries[name]!, layout: layoutOf(entries[name]!) }));
      for (const c of layouts) {
        expect(c.layout.instructions.filter((x) => x.op === AASTORE).length, c.name).toBeGreaterThan(0);
        expect(
          c.layout.instructions.some((x) => x.op === ANEWARRAY),
          c.name,
        ).toBe(true);
      }
      const mutated = path.join(scratch.dir, 'mutated.jar');
      mkdirSync(scratch.dir, { recursive: true });
      const commands = [
        ['compare', '--job-jar', mutated, '--against', JAR, '--root', 'fixtures.events.Event', '--format', 'json'],
        ['check', SAVEPOINT, '--job-jar', mutated, '--format', 'json', '--no-values'],
      ];
      // the unmutated jar's answers
      writeFileSync(mutated, readFileSync(JAR));
      const baseline = new CliCaseRunner();
      const answers: unknown[] = [];
      try {
        for (const argv of commands) {
          const run = await baseline.run(argv, 60_000);
          expect(run.code, `${argv.join(' ')}: ${run.stderr}`).toBe(0);
          const seen = viewCheck(run);
          expect(seen.flagged).toBeUndefined();
          answers.push(seen.answer);
        }
      } finally {
        await baseline.close();
      }
      const rnd = createSeededRandom(SEED);
      const cases: FuzzCase[] = [];
      for (let i = 0; i < CASES; i++) {
        const c = layouts[rnd.int(layouts.length)]!;
        const [bytes, what] = mutateClass(c.bytes, c.layout, rnd);
        const which = i % commands.length;
        cases.push({
          name: `jar #${i} (seed ${SEED}): ${path.basename(c.name)}: ${what}`,
          prepare: () => {
            writeFileSync(mutated, zipSync({ ...entries, [c.name]: bytes }, { level: 0 }));
            return commands[which]!;
          },
          judge: (run) => judgeAgainstBaseline(run, answers[which], viewCheck),
        });
      }
      const summary = await runFuzzCases(cases);
      console.log(describeSummary('job-jar fuzz', summary));
      expect(summary.failures).toEqual([]);
    } finally {
      scratch.remove();
    }
  });
});
