/**
 * Robustness of the job-jar reader: seeded mutations of the generated outer class inside a fixture jar
 * (re-zipped, so the zip itself is sound) and of the jar's raw bytes each end in a schema or a located
 * DecodeError — never a plain Error (a bug), never a hang.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { bytesSource, isDecodeError } from '../../src/core/io';
import { extractJobJarSchema } from '../../src/core/jar';

const JAR = new Uint8Array(readFileSync(path.resolve('fixtures/job-jars/jars/thin-4.36.2.jar')));
const OUTER = 'dev/savepointinspector/fixtures/generated/EventMessages.class';

/** xorshift32: the same cases on every run */
function random(seed: number): () => number {
  let x = seed || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

function mutate(bytes: Uint8Array, next: () => number): Uint8Array {
  const out = bytes.slice();
  const kind = Math.floor(next() * 3);
  if (kind === 0) for (let i = 0; i < 1 + Math.floor(next() * 4); i++) out[Math.floor(next() * out.length)] = Math.floor(next() * 256);
  else if (kind === 1) return out.subarray(0, Math.floor(next() * out.length));
  else {
    const at = Math.floor(next() * out.length);
    out[at] = 0xff;
    if (at + 1 < out.length) out[at + 1] = 0xff;
  }
  return out;
}

async function outcome(jar: Uint8Array): Promise<'schema' | 'decode-error'> {
  try {
    await extractJobJarSchema(bytesSource('m.jar', jar));
    return 'schema';
  } catch (e) {
    if (isDecodeError(e)) {
      expect(e.message.length).toBeGreaterThan(20);
      return 'decode-error';
    }
    throw e;
  }
}

describe('mutated job jars', () => {
  it('a mutated generated class ends in a schema or a located DecodeError (150 seeded cases)', async () => {
    // only the outer class and what it needs: the other entries would be re-zipped for every case
    const all = unzipSync(JAR);
    const entries = Object.fromEntries(Object.entries(all).filter(([name]) => name.endsWith('Messages.class') || name.endsWith('OrBuilder.class')));
    const next = random(18);
    const seen = new Set<string>();
    for (let i = 0; i < 150; i++) {
      seen.add(await outcome(zipSync({ ...entries, [OUTER]: mutate(entries[OUTER]!, next) }, { level: 0 })));
    }
    expect(seen).toEqual(new Set(['schema', 'decode-error']));
  });

  it('mutated jar bytes end in a schema or a located DecodeError (200 seeded cases)', async () => {
    const next = random(1800);
    for (let i = 0; i < 200; i++) await outcome(mutate(JAR, next));
  });
});
