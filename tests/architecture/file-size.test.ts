/**
 * No source file of src/core over 450 lines (issue #34): a file past that holds more than one concern and is
 * split by concern (as stream-element-snapshot.ts and read-sst-properties.ts were), not by line count alone.
 * Tests beside the source are not counted.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const CORE = path.resolve(__dirname, '../../src/core');
const MAX_LINES = 450;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe('src/core file sizes', () => {
  it(`has no source file over ${MAX_LINES} lines`, () => {
    const files = sourceFiles(CORE);
    expect(files.length).toBeGreaterThan(100);
    const over = files
      .map((f) => ({ file: path.relative(CORE, f), lines: readFileSync(f, 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => `${f.file}: ${f.lines} lines`);
    expect(over).toEqual([]);
  });
});
