/**
 * Facades, not barrels: each src/core folder's index.ts exports exactly what other folders use (src/
 * outside the folder, bench/, scripts/, e2e/); tests of a folder's internals import the declaring files.
 * An export nobody outside uses, or a name another folder reaches past the index for, fails here.
 */
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const FOLDERS = ['io', 'flink', 'protobuf', 'compat', 'migration', 'jar', 'report', 'export'];

function createProgram(): ts.Program {
  const config = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  return ts.createProgram(parsed.fileNames, parsed.options);
}

/** Whether `file` counts as a user of folder `folder`'s facade (another folder's code; not tests). */
function isUser(file: string, folder: string): boolean {
  const rel = path.relative(ROOT, file);
  if (rel.startsWith('tests/') || /\.test\.tsx?$/.test(rel) || rel.startsWith(`src/core/${folder}/`)) return false;
  return /^(src|bench|scripts|e2e|vite-plugins)\//.test(rel);
}

describe('src/core facades', () => {
  it('export exactly the names other folders import, and nothing else', () => {
    const program = createProgram();
    const checker = program.getTypeChecker();
    const options = program.getCompilerOptions();
    const unused: string[] = [];
    const imported: string[] = [];
    for (const folder of FOLDERS) {
      const index = path.join(ROOT, 'src/core', folder, 'index.ts');
      const source = program.getSourceFile(index)!;
      const exported = new Set(checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).map((s) => s.name));
      const used = new Set<string>();
      for (const f of program.getSourceFiles()) {
        const file = path.resolve(f.fileName);
        if (file.includes('node_modules') || !isUser(file, folder)) continue;
        for (const st of f.statements) {
          if (!(ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) || !st.moduleSpecifier || !ts.isStringLiteral(st.moduleSpecifier)) continue;
          const target = ts.resolveModuleName(st.moduleSpecifier.text, file, options, ts.sys).resolvedModule?.resolvedFileName;
          if (target === undefined) continue;
          const resolved = path.resolve(target);
          const inFolder = resolved.startsWith(path.join(ROOT, 'src/core', folder) + path.sep);
          if (!inFolder) continue;
          if (resolved !== index) {
            imported.push(`${path.relative(ROOT, file)} imports ${path.relative(ROOT, resolved)} past src/core/${folder}/index.ts`);
            continue;
          }
          const clause = ts.isImportDeclaration(st) ? st.importClause?.namedBindings : st.exportClause;
          if (clause && (ts.isNamedImports(clause) || ts.isNamedExports(clause))) for (const el of clause.elements) used.add((el.propertyName ?? el.name).text);
          else if (clause) for (const n of exported) used.add(n);
        }
      }
      for (const n of exported) if (!used.has(n)) unused.push(`src/core/${folder}/index.ts exports ${n}, which no other folder imports`);
    }
    expect(unused).toEqual([]);
    expect(imported).toEqual([]);
  });
});
