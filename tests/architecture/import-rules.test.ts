/**
 * The import rules of src/, checked on every import of every .ts/.tsx file under src/ (type-only
 * imports, re-exports and `import()` included; tests beside the source too):
 *
 * - src/core/<folder> imports the other core folders the layer map of src/core/README.md allows
 *   (`CORE_LAYERS`), each only through its `index.ts`; inside one folder, files and sub-folders import
 *   each other directly, and the sub-folders of a folder listed in `CORE_SUBFOLDER_LAYERS` (compat, flink) import
 *   each other in one direction only (tests beside the source excepted; the folder's top-level files, its
 *   facade and shared types, are no sub-folder). The core imports nothing else of the repo and no package but `CORE_PACKAGES`
 *   (so no Node, DOM or React module); its tests may add vitest, fast-check and tests/helpers/.
 * - src/worker imports the core only as `../core/<folder>` (the index), never src/ui, and src/cli only
 *   from tests (Node byte sources, the CLI as the reference); no React, no Node module outside tests.
 * - src/ui imports the worker only through `src/worker/index.ts`, and of the core only types (`import type`:
 *   no value, not even `import { type X }`, which loads the module), from the indexes of `UI_CORE_FOLDERS`:
 *   the page shows, the worker computes (bytes are read, decoded and judged in the worker, and what the page
 *   draws of a report comes with it); never src/cli; no Node module outside tests.
 * - src/cli imports the core only through each folder's index, and neither src/ui nor src/worker.
 * - No import cycle among the files of src/core.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What each src/core folder may import of the other core folders (the table in src/core/README.md). */
const CORE_LAYERS: Readonly<Record<string, readonly string[]>> = {
  io: [],
  flink: ['io'],
  protobuf: ['io', 'flink'],
  compat: ['io', 'flink', 'protobuf'],
  migration: ['io', 'flink', 'compat'],
  jar: ['io', 'compat'],
  export: ['io', 'flink', 'protobuf'],
  report: ['io', 'flink', 'protobuf', 'compat', 'jar'],
};
/**
 * Inside a core folder: which of its sub-folders each sub-folder may import (docs/architecture.md). Every
 * sub-folder of a folder listed here must be listed; a folder not listed here has no such rule (yet).
 */
const CORE_SUBFOLDER_LAYERS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  compat: {
    descriptors: [],
    serializers: ['descriptors'],
    rules: ['descriptors', 'serializers'],
    diff: ['descriptors', 'rules'],
    'value-scan': [],
  },
  flink: {
    values: [],
    snapshots: ['values'],
    metadata: ['values'],
    savepoint: ['values', 'snapshots', 'metadata'],
    keyed: ['values', 'snapshots', 'metadata', 'savepoint'],
    operator: ['values', 'snapshots', 'metadata', 'savepoint', 'keyed'],
    rocksdb: ['values', 'snapshots', 'metadata', 'savepoint', 'keyed'],
    headers: ['values', 'snapshots', 'metadata', 'savepoint', 'keyed', 'operator', 'rocksdb'],
    scan: ['values', 'snapshots', 'metadata', 'savepoint', 'keyed', 'operator', 'rocksdb', 'headers'],
    connectors: ['values', 'snapshots', 'metadata', 'savepoint', 'keyed', 'operator', 'rocksdb', 'headers', 'scan'],
    inspection: ['values', 'snapshots', 'metadata', 'savepoint', 'keyed', 'operator', 'rocksdb', 'headers', 'scan', 'connectors'],
  },
};
/** The packages the core's source may import. */
const CORE_PACKAGES = ['@bufbuild/protobuf', '@noble/hashes', 'fflate', 'fzstd', 'snappyjs', 'snappy-wasm', 'hyparquet-writer', 'apache-arrow'];
/** What a test file (`*.test.ts`) beside the core's source may import besides. */
const CORE_TEST_PACKAGES = ['vitest', 'fast-check'];
/** The core folders whose index the UI may import. */
const UI_CORE_FOLDERS = ['flink', 'compat', 'migration', 'report'];

interface SourceImport {
  /** repo-relative path of the importing file, with `/` */
  from: string;
  specifier: string;
  /** repo-relative path of the file a relative specifier resolves to; `null` when none exists; `undefined` for a package */
  target: string | null | undefined;
  line: number;
  /** `import type` / `export type` / `import('…').T` in a type: erased, nothing of the module is loaded */
  typeOnly?: boolean;
}

function listSourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...listSourceFiles(rel));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

function isFile(rel: string): boolean {
  const abs = path.join(ROOT, rel);
  return existsSync(abs) && statSync(abs).isFile();
}

function resolveRelative(from: string, specifier: string): string | null {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier.replace(/\?.*$/, '')));
  const stem = base.replace(/\.js$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${base}/index.ts`, `${base}/index.tsx`];
  return candidates.find(isFile) ?? null;
}

function listImports(from: string): SourceImport[] {
  const text = readFileSync(path.join(ROOT, from), 'utf8');
  const source = ts.createSourceFile(from, text, ts.ScriptTarget.Latest, false, from.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: SourceImport[] = [];
  const add = (node: ts.Node, literal: ts.Node | undefined, typeOnly: boolean) => {
    if (!literal || !ts.isStringLiteralLike(literal)) return;
    const specifier = literal.text;
    const target = specifier.startsWith('.') ? resolveRelative(from, specifier) : undefined;
    found.push({ from, specifier, target, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, typeOnly });
  };
  const visit = (node: ts.Node) => {
    // under verbatimModuleSyntax only a whole `import type` is erased: `import { type X }` stays as `import {}` and loads the module
    if (ts.isImportDeclaration(node)) add(node, node.moduleSpecifier, node.importClause?.isTypeOnly === true);
    else if (ts.isExportDeclaration(node)) add(node, node.moduleSpecifier, node.isTypeOnly);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      add(node, node.moduleReference.expression, node.isTypeOnly);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node, node.argument.literal, true);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node, node.arguments[0], false);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function isNodeModule(specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(packageName(specifier));
}

/** `src/core/<folder>` of a repo-relative path under src/core, else undefined. */
function coreFolderOf(rel: string): string | undefined {
  const match = /^src\/core\/([^/]+)\//.exec(rel);
  return match?.[1];
}

/** The sub-folder of its core folder a repo-relative path under src/core is in, else undefined (the folder's top level). */
function coreSubFolderOf(rel: string): string | undefined {
  const match = /^src\/core\/[^/]+\/([^/]+)\//.exec(rel);
  return match?.[1];
}

/** What is wrong with an import between two files of core folder `folder`, or undefined. */
function checkSubFolderImport(folder: string, from: string, target: string, isTest: boolean): string | undefined {
  const layers = CORE_SUBFOLDER_LAYERS[folder];
  if (layers === undefined) return undefined;
  const sub = coreSubFolderOf(from);
  const targetSub = coreSubFolderOf(target);
  for (const [rel, one] of [
    [from, sub],
    [target, targetSub],
  ] as const)
    if (one !== undefined && !(one in layers)) return `${rel} is in no sub-folder of core/${folder}'s map (CORE_SUBFOLDER_LAYERS)`;
  if (isTest || sub === undefined || targetSub === undefined || sub === targetSub) return undefined;
  return layers[sub].includes(targetSub)
    ? undefined
    : `core/${folder}/${sub} may not import core/${folder}/${targetSub} (allowed: ${layers[sub].join(', ') || 'none'})`;
}

const isCoreIndex = (rel: string, folders: readonly string[]) => folders.some((folder) => rel === `src/core/${folder}/index.ts`);

/** What is wrong with one import, or undefined when the rules allow it. */
function checkImport({ from, specifier, target, typeOnly }: SourceImport): string | undefined {
  const isTest = /\.test\.tsx?$/.test(from);
  if (target === null) return `${specifier} resolves to no file`;
  const layer = /^src\/([^/]+)\//.exec(from)?.[1];
  if (layer === 'core') {
    const folder = coreFolderOf(from);
    if (folder === undefined || !(folder in CORE_LAYERS)) return `${from} is in no folder of the core's layer map`;
    if (target === undefined) {
      // a test beside the core's source runs in Node: it may read its fixtures with Node's modules
      if (isTest && isNodeModule(specifier)) return undefined;
      const allowed = isTest ? [...CORE_PACKAGES, ...CORE_TEST_PACKAGES] : CORE_PACKAGES;
      return allowed.includes(packageName(specifier)) ? undefined : `the core imports no package but ${allowed.join(', ')} (${specifier})`;
    }
    const targetFolder = coreFolderOf(target);
    if (targetFolder === folder) return checkSubFolderImport(folder, from, target, isTest);
    if (targetFolder !== undefined) {
      if (!CORE_LAYERS[folder].includes(targetFolder))
        return `core/${folder} may not import core/${targetFolder} (allowed: ${CORE_LAYERS[folder].join(', ') || 'none'})`;
      return isCoreIndex(target, [targetFolder]) ? undefined : `core/${folder} imports core/${targetFolder} only through its index.ts, not ${target}`;
    }
    if (isTest && target.startsWith('tests/helpers/')) return undefined;
    return `the core imports nothing outside src/core (${target})`;
  }
  if (layer === 'worker' || layer === 'ui' || layer === 'cli') {
    if (target === undefined) {
      if (layer !== 'cli' && !isTest && isNodeModule(specifier)) return `src/${layer} imports no Node module (${specifier})`;
      if (layer === 'worker' && /^react(-dom)?$/.test(packageName(specifier))) return `src/worker imports no React (${specifier})`;
      return undefined;
    }
    if (target.startsWith('src/core/')) {
      // a test may reach the core's internals (what it tests need not be on a facade: tests/architecture/facades.test.ts)
      if (isTest) return undefined;
      const folders = layer === 'ui' ? UI_CORE_FOLDERS : Object.keys(CORE_LAYERS);
      if (!isCoreIndex(target, folders)) return `src/${layer} imports the core only through the index of ${folders.join(', ')}, not ${target}`;
      // the page shows, the worker computes: what the UI needs of the core comes as data from the worker
      return layer === 'ui' && typeOnly !== true
        ? `src/ui imports only types of the core (\`import type\`), not values (${specifier}): the worker computes, the page shows`
        : undefined;
    }
    if (target.startsWith('src/worker/') && layer !== 'worker') {
      if (layer === 'cli') return `src/cli imports nothing of src/worker (${target})`;
      return target === 'src/worker/index.ts' ? undefined : `src/ui imports the worker only through src/worker/index.ts, not ${target}`;
    }
    if (target.startsWith('src/ui/') && layer !== 'ui') return `src/${layer} imports nothing of src/ui (${target})`;
    if (target.startsWith('src/cli/') && layer !== 'cli' && !(layer === 'worker' && isTest)) return `src/${layer} imports nothing of src/cli (${target})`;
  }
  return undefined;
}

function findViolations(imports: readonly SourceImport[]): string[] {
  return imports.flatMap((imp) => {
    const problem = checkImport(imp);
    return problem === undefined ? [] : [`${imp.from}:${imp.line}: ${problem}`];
  });
}

/** Every strongly connected group of more than one file (or a file importing itself), with one cycle through it. */
function findCycles(imports: readonly SourceImport[]): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const { from, target } of imports) {
    if (!edges.has(from)) edges.set(from, new Set());
    if (typeof target === 'string') edges.get(from)!.add(target);
  }
  // Tarjan's strongly connected components
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let next = 0;
  const connect = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1 || edges.get(node)?.has(node)) groups.push(group);
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) connect(node);
  return groups.map((group) => traceCycle(group, edges));
}

/** One cycle through the first file of a strongly connected group: a breadth-first path back to it. */
function traceCycle(group: readonly string[], edges: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const inGroup = new Set(group);
  const start = [...group].sort()[0];
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of edges.get(node) ?? []) {
      if (!inGroup.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== start && at !== undefined; at = previous.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [...group, group[0]];
}

describe('import rules of src/', () => {
  const imports = listSourceFiles('src').flatMap(listImports);

  it('reads the imports of the source tree', () => {
    expect(imports.length).toBeGreaterThan(1000);
    expect(imports.some((imp) => imp.from.startsWith('src/core/') && imp.target === 'src/core/io/index.ts')).toBe(true);
  });

  it('every import follows the layer rules', () => {
    expect(findViolations(imports)).toEqual([]);
  });

  it('no import cycle among the files of src/core', () => {
    const cycles = findCycles(imports.filter((imp) => imp.from.startsWith('src/core/') && imp.target?.startsWith('src/core/')));
    expect(cycles.map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('flags broken rules (the checker itself)', () => {
    const imp = (from: string, specifier: string, target?: string | null, typeOnly?: boolean): SourceImport => ({
      from,
      specifier,
      target,
      line: 1,
      ...(typeOnly === undefined ? {} : { typeOnly }),
    });
    const broken = [
      imp('src/core/io/a.ts', '../flink', 'src/core/flink/index.ts'),
      imp('src/core/protobuf/a.ts', '../flink/keyed/read-key-group', 'src/core/flink/keyed/read-key-group.ts'),
      imp('src/core/flink/a.ts', 'node:fs'),
      imp('src/core/flink/a.ts', 'react'),
      imp('src/core/flink/a.ts', '../../worker', 'src/worker/index.ts'),
      imp('src/core/flink/a.ts', './missing', null),
      imp('src/core/a.ts', './io', 'src/core/io/index.ts'),
      imp('src/worker/a.ts', '../core/io/byte-reader', 'src/core/io/byte-reader.ts'),
      imp('src/worker/a.ts', '../cli/sources', 'src/cli/sources/index.ts'),
      imp('src/worker/a.ts', 'node:fs'),
      imp('src/ui/a.tsx', '../worker/local-inspector', 'src/worker/local-inspector.ts'),
      imp('src/ui/a.tsx', '../core/io', 'src/core/io/index.ts'),
      imp('src/ui/a.tsx', '../../core/compat', 'src/core/compat/index.ts'),
      imp('src/ui/a.tsx', '../../core/compat', 'src/core/compat/index.ts', false),
      imp('src/ui/a/b.tsx', '../../core/report', 'src/core/report/index.ts'),
      imp('src/cli/a.ts', '../core/flink/scan/scan-state', 'src/core/flink/scan/scan-state.ts'),
      imp('src/cli/a.ts', '../worker', 'src/worker/index.ts'),
      imp('src/core/compat/descriptors/a.ts', '../rules/b', 'src/core/compat/rules/b.ts'),
      imp('src/core/compat/rules/a.ts', '../diff/b', 'src/core/compat/diff/b.ts'),
      imp('src/core/compat/other/a.ts', '../types', 'src/core/compat/types.ts'),
      imp('src/core/compat/a.ts', './other/b', 'src/core/compat/other/b.ts'),
      imp('src/core/flink/values/a.ts', '../snapshots/snapshot-types', 'src/core/flink/snapshots/snapshot-types.ts'),
      imp('src/core/flink/keyed/a.ts', '../headers/b', 'src/core/flink/headers/b.ts'),
      imp('src/core/flink/savepoint/a.ts', '../scan/b', 'src/core/flink/scan/b.ts'),
      imp('src/core/flink/scan/sources/a.ts', '../../inspection/b', 'src/core/flink/inspection/b.ts'),
    ];
    expect(broken.filter((one) => checkImport(one) === undefined)).toEqual([]);
    const allowed = [
      imp('src/core/flink/keyed/a.ts', '../metadata/b', 'src/core/flink/metadata/b.ts'),
      imp('src/core/compat/a.ts', '../protobuf', 'src/core/protobuf/index.ts'),
      imp('src/core/io/a.test.ts', 'vitest'),
      imp('src/core/io/a.test.ts', '../../../tests/helpers/x', 'tests/helpers/x.ts'),
      imp('src/worker/a.test.ts', '../cli/sources', 'src/cli/sources/index.ts'),
      imp('src/ui/a.tsx', '../worker', 'src/worker/index.ts'),
      imp('src/ui/a.tsx', '../core/report', 'src/core/report/index.ts', true),
      imp('src/ui/a.test.ts', '../core/report', 'src/core/report/index.ts'),
      imp('src/core/compat/diff/a.ts', '../rules/b', 'src/core/compat/rules/b.ts'),
      imp('src/core/compat/rules/a.ts', '../types', 'src/core/compat/types.ts'),
      imp('src/core/compat/types.ts', './rules/index', 'src/core/compat/rules/index.ts'),
      imp('src/core/compat/descriptors/a.test.ts', '../rules/b', 'src/core/compat/rules/b.ts'),
      imp('src/core/flink/snapshots/table/a.ts', '../make-composite', 'src/core/flink/snapshots/make-composite.ts'),
      imp('src/core/flink/scan/sources/a.ts', '../../headers/b', 'src/core/flink/headers/b.ts'),
      imp('src/core/flink/keyed/a.ts', '../cancel-signal', 'src/core/flink/cancel-signal.ts'),
    ];
    expect(allowed.map(checkImport).filter((problem) => problem !== undefined)).toEqual([]);
    const cycle = findCycles([
      imp('src/core/io/a.ts', './b', 'src/core/io/b.ts'),
      imp('src/core/io/b.ts', './c', 'src/core/io/c.ts'),
      imp('src/core/io/c.ts', './a', 'src/core/io/a.ts'),
    ]);
    expect(cycle).toEqual([['src/core/io/a.ts', 'src/core/io/b.ts', 'src/core/io/c.ts', 'src/core/io/a.ts']]);
  });
});
