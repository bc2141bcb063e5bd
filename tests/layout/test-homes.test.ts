/**
 * The rules of tests/README.md ("Where a test lives") that a program can check: a test beside the
 * sources is named after a module of its folder (or is one of the few topic files listed here), and
 * reads nothing from ../shared; every folder under tests/ is described in tests/README.md.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();

/** Test files beside the sources that cover a few small modules of their folder, named for their topic. */
const TOPIC_FILES = [
  'src/core/compat/compat-units.test.ts',
  'src/core/report/report-formats.test.ts',
  'src/ui/demo-schema/demo-schema.test.ts',
  'src/ui/report/report-helpers.test.ts',
  'src/ui/ui-helpers.test.ts',
  'src/worker/state-index-helpers.test.ts',
  'src/worker/summarize-and-histogram.test.ts',
];

function listFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    return statSync(path.join(ROOT, rel)).isDirectory() ? listFiles(rel) : [rel];
  });
}

/** The module a test file beside the sources is named after: `x.test.ts` → x, `x-aspect.test.ts` → x, if x is a module of the folder. */
export function testedModule(testFile: string, siblings: readonly string[]): string | undefined {
  const base = path.basename(testFile, '.test.ts');
  const modules = new Set(
    siblings.filter((n) => /\.(ts|tsx|mjs)$/.test(n) && !n.endsWith('.test.ts') && !n.endsWith('.d.ts')).map((n) => n.replace(/\.(ts|tsx|mjs)$/, '')),
  );
  for (let name = base; name !== ''; name = name.includes('-') ? name.slice(0, name.lastIndexOf('-')) : '') {
    if (modules.has(name)) return name;
  }
  return undefined;
}

describe('where tests live', () => {
  const besideSources = listFiles('src').filter((f) => f.endsWith('.test.ts'));

  it('a test beside the sources is named after a module of its folder, or is a listed topic file', () => {
    expect(besideSources.length).toBeGreaterThan(40);
    const unnamed = besideSources.filter((f) => !TOPIC_FILES.includes(f) && testedModule(f, readdirSync(path.join(ROOT, path.dirname(f)))) === undefined);
    expect(unnamed, 'move these under tests/ or name them after the module they test (tests/README.md)').toEqual([]);
    for (const f of TOPIC_FILES) expect(besideSources, 'a listed topic file that no longer exists').toContain(f);
  });

  it('no test beside the sources reads ../shared', () => {
    const readers = besideSources.filter((f) =>
      /shared\/flink-savepoints['/`]|helpers\/shared-savepoints'|NEEDS_SHARED/.test(readFileSync(path.join(ROOT, f), 'utf8')),
    );
    expect(readers, 'tests over ../shared live under tests/ (tests/README.md)').toEqual([]);
  });

  it('no test skips over committed data: only ../shared readers skip (tagged NEEDS_SHARED), and the listed tool checks', () => {
    // a skip needs the tag on the same options object (`{ tags: [NEEDS_SHARED_TAG], skip: … }`) or NEEDS_SHARED itself;
    // committed fixtures are required with tests/helpers/committed-data.ts instead (a moved fixture fails the file)
    const TOOL_SKIPS = [
      'tests/protobuf/protobuf-java-differential.test.ts', // needs java, javac and protobuf-java in ~/.m2
      'tests/cli-bundle/npm-package.test.ts', // its container case needs podman
      'tests/cli-bundle/cli-bundle.test.ts', // its object-store case needs versitygw and fake-gcs-server, or go to build them
      'tests/object-stores/s3-read.test.ts', // needs versitygw, or go to build it
      'tests/object-stores/companion-s3.test.ts', // needs versitygw, or go to build it
      'tests/object-stores/s3-faults.test.ts',
      'tests/object-stores/webhdfs-read.test.ts', // needs java, and mvn to build its MiniDFSCluster launcher once
      'tests/object-stores/webhdfs-faults.test.ts',
      'tests/object-stores/gcs-read.test.ts', // needs fake-gcs-server, or go to build it
      'tests/object-stores/gcs-faults.test.ts',
    ];
    const tests = [...besideSources, ...listFiles('tests').filter((f) => f.endsWith('.test.ts'))];
    const skipping = tests.filter((f) => {
      if (TOOL_SKIPS.includes(f) || f === 'tests/layout/test-homes.test.ts') return false;
      return readFileSync(path.join(ROOT, f), 'utf8')
        .split('\n')
        .some((line) => /\.(skipIf|runIf)\(|\b(describe|it|test)\.skip\(|[{,]\s*skip: /.test(line) && !/tags: \[NEEDS_SHARED_TAG\], skip: /.test(line));
    });
    expect(skipping, 'require committed data with requireCommitted (tests/helpers/committed-data.ts); skip only ../shared readers, with NEEDS_SHARED').toEqual(
      [],
    );
    for (const f of TOOL_SKIPS) expect(readFileSync(path.join(ROOT, f), 'utf8'), f).toMatch(/\.skipIf\(/);
  });

  it('every folder under tests/ is described in tests/README.md', () => {
    const readme = readFileSync(path.join(ROOT, 'tests/README.md'), 'utf8');
    const folders = readdirSync(path.join(ROOT, 'tests')).filter((n) => statSync(path.join(ROOT, 'tests', n)).isDirectory());
    expect(folders.filter((n) => !readme.includes(`| \`${n}/\` |`))).toEqual([]);
  });

  it('finds the module a test is named after', () => {
    const siblings = ['local-inspector.ts', 'local-inspector-pages.test.ts', 'read-state.ts', 'types.d.ts', 'view.tsx'];
    expect(testedModule('src/w/local-inspector-pages.test.ts', siblings)).toBe('local-inspector');
    expect(testedModule('src/w/read-state.test.ts', siblings)).toBe('read-state');
    expect(testedModule('src/w/view-focus.test.ts', siblings)).toBe('view');
    expect(testedModule('src/w/read.test.ts', siblings)).toBeUndefined();
    expect(testedModule('src/w/types.test.ts', siblings)).toBeUndefined();
  });
});
