/**
 * Compiles .proto files to a binary FileDescriptorSet with the buf CLI from npm (@bufbuild/buf),
 * as a user would (`buf build -o x.binpb`). Used by the benchmark generator and the evaluator
 * benchmark (which also times `buf breaking` over the same sets).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const BUF_BIN = path.resolve(process.cwd(), 'node_modules/.bin/buf');

export function buildDescriptorSet(files: Readonly<Record<string, string>>, out?: string): Uint8Array {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-buf-'));
  try {
    const src = path.join(dir, 'src');
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(src, name)), { recursive: true });
      writeFileSync(path.join(src, name), text);
    }
    const target = out ?? path.join(dir, 'out.binpb');
    execFileSync(BUF_BIN, ['build', src, '--exclude-source-info', '-o', target], {
      env: { ...process.env, BUF_CACHE_DIR: path.join(tmpdir(), 'bench-buf-cache') },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    return new Uint8Array(readFileSync(target));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
