/**
 * A write that the operating system refuses — a full disk (ENOSPC), no permission (EACCES, EPERM), a
 * read-only file system, a closed pipe (EPIPE), an I/O error — is the user's environment, not a bug: a
 * `cannot-write` UsageError (exit 2) naming the output and what the OS said, e.g.
 * `cannot write /dev/full: no space left on device (ENOSPC)`. Used by every command that writes an
 * output file or stdout (export, check, compare, export-schema, migration-job; run-as-process.ts for stdout).
 */
import { writeFile } from 'node:fs/promises';
import { wrongInput, type UsageError } from '../core/io';

/** errno codes of a write the environment refused (the file system, the device, the pipe) */
const OUTPUT_ERROR_CODES = new Set([
  'ENOSPC',
  'EDQUOT',
  'EFBIG',
  'EACCES',
  'EPERM',
  'EROFS',
  'EPIPE',
  'EIO',
  'ENXIO',
  'EISDIR',
  'ENOTDIR',
  'ENOENT',
  'EEXIST',
  'EBADF',
  'ECONNRESET',
]);

/** The UsageError for an errno error met while writing `target`, or undefined when `e` is not one. */
export function toOutputFailure(e: unknown, target: string): UsageError | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const { code, message } = e as { code?: unknown; message?: unknown };
  if (typeof code !== 'string' || !OUTPUT_ERROR_CODES.has(code)) return undefined;
  // Node words it `ENOSPC: no space left on device, write` (or `…, open '/x/y'`): keep what the OS said
  const text = typeof message === 'string' ? message : code;
  const said = new RegExp(`^${code}: (.*?)(?:, \\w+(?: '.*')?)?$`).exec(text)?.[1] ?? text;
  return wrongInput('cannot-write', `cannot write ${target}: ${said} (${code})`);
}

/** Rethrows a refused write of `target` as its UsageError; anything else unchanged. */
export function rethrowAsOutputFailure(e: unknown, target: string): never {
  throw toOutputFailure(e, target) ?? e;
}

/** writeFile, with a refused write reported as the user's environment (toOutputFailure). */
export async function writeOutputFile(target: string, data: string | Uint8Array): Promise<void> {
  try {
    await writeFile(target, data);
  } catch (e) {
    rethrowAsOutputFailure(e, target);
  }
}
