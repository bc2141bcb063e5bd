import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { generateBenchSavepoint, type BenchSavepointManifest, type BenchSavepointOptions } from '../../bench/generate/generate-bench-savepoint';

/** Where useGeneratedBenchSavepoint put its savepoint: set once the suite's beforeAll hooks ran. */
export interface GeneratedBenchSavepoint {
  dir: string;
  manifest: BenchSavepointManifest;
}

/**
 * A bench savepoint (bench/generate) generated into `<tmp>/<prefix>…/sp` before the tests of the
 * current file or describe block, and removed after them. Call it where beforeAll would go.
 */
export function useGeneratedBenchSavepoint(prefix: string, options: Omit<BenchSavepointOptions, 'dir'>, timeoutMs?: number): GeneratedBenchSavepoint {
  const generated = { dir: '', manifest: undefined } as unknown as GeneratedBenchSavepoint;
  let root = '';
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), prefix));
    generated.dir = path.join(root, 'sp');
    generated.manifest = generateBenchSavepoint({ dir: generated.dir, ...options });
  }, timeoutMs);
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return generated;
}
