/**
 * Compiles .proto text to a binary FileDescriptorSet with the buf CLI from npm (@bufbuild/buf), as
 * a user would (`buf build -o x.binpb`): no hand-written descriptor bytes in the conformance suite.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const BUF = path.resolve(process.cwd(), 'node_modules/.bin/buf');

export interface BuildOptions {
  /** pass --exclude-source-info */
  excludeSourceInfo?: boolean;
  /** pass --as-file-descriptor-set (no image extension 8042) */
  asFileDescriptorSet?: boolean;
  /** pass --exclude-imports */
  excludeImports?: boolean;
}

export async function buildDescriptorSet(files: Readonly<Record<string, string>>, options: BuildOptions = {}): Promise<Uint8Array> {
  const dir = await mkdtemp(path.join(tmpdir(), 'compat-buf-'));
  try {
    const src = path.join(dir, 'src');
    for (const [name, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(src, name)), { recursive: true });
      await writeFile(path.join(src, name), text);
    }
    const out = path.join(dir, 'out.binpb');
    const args = ['build', src, '-o', out];
    if (options.excludeSourceInfo) args.push('--exclude-source-info');
    if (options.asFileDescriptorSet) args.push('--as-file-descriptor-set');
    if (options.excludeImports) args.push('--exclude-imports');
    await run(BUF, args, { cwd: dir, env: { ...process.env, BUF_CACHE_DIR: path.join(tmpdir(), 'compat-buf-cache') } });
    return new Uint8Array(await readFile(out));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * `buf breaking new --against old` with the WIRE category only: the messages of the wire breaks it
 * finds (exit 100 when it finds any), as buf prints them in its JSON error format.
 */
export async function runBufBreakingWire(saved: Uint8Array, next: Uint8Array): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'compat-buf-breaking-'));
  try {
    await writeFile(path.join(dir, 'old.binpb'), saved);
    await writeFile(path.join(dir, 'new.binpb'), next);
    const config = JSON.stringify({ version: 'v2', breaking: { use: ['WIRE'] } });
    const args = ['breaking', 'new.binpb', '--against', 'old.binpb', '--config', config, '--error-format', 'json'];
    let stdout: string;
    try {
      stdout = (await run(BUF, args, { cwd: dir, env: { ...process.env, BUF_CACHE_DIR: path.join(tmpdir(), 'compat-buf-cache') } })).stdout;
    } catch (e) {
      const failed = e as { code?: number; stdout?: string; stderr?: string };
      if (failed.code !== 100) throw new Error(`buf breaking failed (${failed.code}): ${failed.stderr ?? ''}`, { cause: e });
      stdout = failed.stdout ?? '';
    }
    return stdout
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => (JSON.parse(l) as { message: string }).message);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs `fn` over items with at most `limit` at a time (the machine is shared). */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
