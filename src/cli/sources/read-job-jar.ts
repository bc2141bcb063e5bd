/**
 * The CLI's side of `--job-jar` and `--with`: opens the jars as ByteSources (read by range, never
 * whole), extracts the job's schema with the core (src/core/jar) and hashes each jar for the
 * report's inputs with node:crypto, streaming. The report names each jar by its base name, as it
 * names descriptor sets.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { extractJobJarSchema, type JobJarSchema } from '../../core/jar';
import type { ReportInputFile } from '../../core/report';
import { openNodeFileSource } from './node-file-source';
import { checkRegularFile } from './read-descriptor-set-file';

export interface ReadJobJar {
  schema: JobJarSchema;
  files: ReportInputFile[];
}

export async function readJobJar(
  jarPath: string,
  withPaths: readonly string[],
  role: 'job-jar' | 'saved-job-jar' = 'job-jar',
  options: { stringLiterals?: boolean } = {},
): Promise<ReadJobJar> {
  const all = [jarPath, ...withPaths];
  for (const p of all) checkRegularFile(await stat(p), p, 'a jar');
  const sources = await Promise.all(all.map((p) => openNodeFileSource(p, path.basename(p))));
  const [hashes, schema] = await Promise.all([Promise.all(all.map(hashFile)), extractJobJarSchema(sources[0]!, sources.slice(1), options)]);
  const files = all.map((p, i): ReportInputFile => ({ role: i === 0 ? role : 'with-jar', name: path.basename(p), size: sources[i]!.size, sha256: hashes[i]! }));
  return { schema, files };
}

function hashFile(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file, { highWaterMark: 1024 * 1024 })
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

/** Whether a file starts like a zip (a jar), for inputs that may be a jar or a descriptor set. */
export function looksLikeJar(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 0x03 || bytes[2] === 0x05) && (bytes[3] === 0x04 || bytes[3] === 0x06);
}
