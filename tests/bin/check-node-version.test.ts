/**
 * bin/check-node-version.mjs: the Node version check the bin runs first, against package.json "engines" (read
 * from the package itself, not a second copy of the range): a pure function over version strings, and one run
 * of the real bin on a Node that reports an older version (a preload module fakes process.version(s)): one
 * line on stderr, exit 2, nothing else run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs helper of bin/ without type declarations
import { checkNodeVersion, parseEnginesRange } from '../../bin/check-node-version.mjs';

const check = checkNodeVersion as (version: string, range: string) => string | undefined;
const parseRange = parseEnginesRange as (range: string) => [number, number, number];
const ROOT = process.cwd();
const engines = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

describe('checkNodeVersion', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'node-version-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('admits the versions package.json "engines" admits and words the refusal in one line', () => {
    expect(engines).toBe('>=20.19');
    expect(parseRange(engines)).toEqual([20, 19, 0]);
    for (const ok of ['v20.19.0', 'v20.19.4', 'v20.20.0', 'v22.0.0', 'v24.11.1', '20.19.0']) expect(check(ok, engines), ok).toBeUndefined();
    for (const old of ['v20.18.3', 'v20.0.0', 'v18.20.4', 'v16.20.2']) {
      expect(check(old, engines), old).toBe(
        `savepoint-inspector: needs Node.js 20.19 or later (package.json "engines": ${engines}), this is ${old.startsWith('v') ? old : `v${old}`}`,
      );
    }
    expect(check('v20.19.0', '>=20.19.1')).toBe('savepoint-inspector: needs Node.js 20.19.1 or later (package.json "engines": >=20.19.1), this is v20.19.0');
    expect(() => parseRange('^20.19 || >=22')).toThrow('package.json "engines.node" must be ">=MAJOR[.MINOR[.PATCH]]", found ^20.19 || >=22');
  });

  it('the bin on an older Node: the one line, exit 2, before anything else runs', () => {
    const fake = path.join(dir, 'fake-node-18.mjs');
    writeFileSync(
      fake,
      "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '18.20.4' } });\nObject.defineProperty(process, 'version', { value: 'v18.20.4' });\n",
    );
    const r = spawnSync(process.execPath, ['--import', pathToFileURL(fake).href, path.join(ROOT, 'bin/savepoint-inspector.mjs'), '--version'], {
      encoding: 'utf8',
      env: { ...process.env, SAVEPOINT_INSPECTOR_TSX: '1' },
    });
    expect({ code: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: `savepoint-inspector: needs Node.js 20.19 or later (package.json "engines": ${engines}), this is v18.20.4\n`,
    });
    const current = spawnSync(process.execPath, [path.join(ROOT, 'bin/savepoint-inspector.mjs'), '--version'], { encoding: 'utf8' });
    expect([current.status, current.stderr]).toEqual([0, '']);
  });
});
