/** bin/is-bundle-fresh.mjs: when bin/savepoint-inspector.mjs may run the prebuilt CLI bundle instead of the sources. */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs helper of bin/ without type declarations
import { checkBundleFreshness } from '../../bin/is-bundle-fresh.mjs';

const fresh = checkBundleFreshness as (bundle: string, distDir: string, rootDir: string, inputsName?: string) => 'fresh' | 'not-built' | 'stale';

describe('checkBundleFreshness', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'bundle-fresh-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is fresh only while every listed source is older than the bundle and present', () => {
    const dist = path.join(dir, 'dist');
    const bundle = path.join(dist, 'cli.mjs');
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    expect(fresh(bundle, dist, dir)).toBe('not-built');
    writeFileSync(path.join(dir, 'src/a.ts'), 'a');
    writeFileSync(path.join(dir, 'src/b.ts'), 'b');
    mkdirSync(dist);
    writeFileSync(bundle, '');
    expect(fresh(bundle, dist, dir)).toBe('not-built'); // no inputs.json
    writeFileSync(path.join(dist, 'inputs.json'), JSON.stringify({ sources: ['src/a.ts', 'src/b.ts'] }));
    const t = Date.now() / 1000;
    utimesSync(path.join(dir, 'src/a.ts'), t - 20, t - 20);
    utimesSync(path.join(dir, 'src/b.ts'), t - 20, t - 20);
    utimesSync(bundle, t - 10, t - 10);
    expect(fresh(bundle, dist, dir)).toBe('fresh');
    utimesSync(path.join(dir, 'src/b.ts'), t - 5, t - 5);
    expect(fresh(bundle, dist, dir)).toBe('stale');
    utimesSync(path.join(dir, 'src/b.ts'), t - 20, t - 20);
    rmSync(path.join(dir, 'src/a.ts'));
    expect(fresh(bundle, dist, dir)).toBe('stale');
  });

  it('checks a bundle against the input list it is given (the compare bundle: compare-inputs.json)', () => {
    const dist = path.join(dir, 'dist-compare');
    const bundle = path.join(dist, 'compare.cjs');
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    mkdirSync(dist);
    writeFileSync(path.join(dir, 'src/c.ts'), 'c');
    writeFileSync(path.join(dir, 'src/d.ts'), 'd');
    writeFileSync(bundle, '');
    writeFileSync(path.join(dist, 'inputs.json'), JSON.stringify({ sources: ['src/c.ts', 'src/d.ts'] }));
    expect(fresh(bundle, dist, dir, 'compare-inputs.json')).toBe('not-built');
    writeFileSync(path.join(dist, 'compare-inputs.json'), JSON.stringify({ sources: ['src/c.ts'] }));
    const t = Date.now() / 1000;
    utimesSync(path.join(dir, 'src/c.ts'), t - 20, t - 20);
    utimesSync(path.join(dir, 'src/d.ts'), t - 5, t - 5);
    utimesSync(bundle, t - 10, t - 10);
    // d.ts is newer than the bundle but not one of its sources
    expect(fresh(bundle, dist, dir, 'compare-inputs.json')).toBe('fresh');
    expect(fresh(bundle, dist, dir)).toBe('stale');
    utimesSync(path.join(dir, 'src/c.ts'), t - 5, t - 5);
    expect(fresh(bundle, dist, dir, 'compare-inputs.json')).toBe('stale');
  });
});
