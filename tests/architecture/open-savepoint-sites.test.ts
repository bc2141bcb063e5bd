/**
 * `openSavepoint(` is called from a few places only (issue #34): a command or the worker opens the savepoint once,
 * as a SavepointSession, and passes it on; nothing below them reopens `_metadata`. The places allowed, each an
 * entry point: the session factory, the app's worker (its open session's `_metadata`, read once), `stats`' main
 * thread (its scan units and size breakdown; its worker threads open a session each), and the companion's pre-read
 * of an object-store savepoint (to learn which absolute files it names). Tests beside the
 * source are not counted; a new place means a path that reads `_metadata` again, or an entry point to add here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../../src');

const ALLOWED = ['cli/commands/companion-api.ts', 'cli/scan/run-parallel-scan.ts', 'core/flink/inspection/savepoint-session.ts', 'worker/local-inspector.ts'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** The calls of openSavepoint in a source, its definition and comments left out. */
function callSites(text: string): number {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  return (code.match(/(?<![\w.])openSavepoint\(/g) ?? []).length - (code.match(/function openSavepoint\(/g) ?? []).length;
}

describe('openSavepoint call sites', () => {
  it('counts a call and leaves out the definition and comments', () => {
    expect(callSites('const a = await openSavepoint(files);\n// openSavepoint(x)\n/* openSavepoint(y) */')).toBe(1);
    expect(callSites('export async function openSavepoint(files: SavepointFiles) {}')).toBe(0);
    expect(callSites('await openSavepointSession(files, registry); x.openSavepoint(files)')).toBe(0);
  });

  it(`calls openSavepoint( from ${ALLOWED.length} places only, one each`, () => {
    const sites = sourceFiles(SRC)
      .map((f) => ({ file: path.relative(SRC, f).split(path.sep).join('/'), calls: callSites(readFileSync(f, 'utf8')) }))
      .filter((s) => s.calls > 0)
      .map((s) => `${s.file}: ${s.calls}`)
      .sort();
    expect(sites).toEqual(ALLOWED.map((f) => `${f}: 1`));
  });
});
