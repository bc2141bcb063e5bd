/**
 * The job's schema for `inspect`, `dump` and `stats` (a Kryo or flink-protobuf-serde snapshot embeds none):
 * `--descriptors <set>` or the job's jar (`--job-jar <jar> [--with <dep.jar> …]`, its embedded descriptors, as
 * `check --job-jar` reads them). Undefined when neither is given.
 */
import path from 'node:path';
import { CliUsageError } from '../cli-types';
import { readDescriptorSetFile, readJobJar } from '../sources';

export const USER_SCHEMA_USAGE = [
  "  --descriptors FILE   the job's descriptor set: maps Kryo-held and flink-protobuf-serde classes to",
  "                       Protobuf messages (protoc's Java naming rules) and decodes their values",
  "  --job-jar FILE       the job's JAR instead: the descriptors its generated classes embed",
  '  --with FILE          with --job-jar: a jar its classes need (repeatable)',
];

export const USER_SCHEMA_OPTIONS = {
  descriptors: { type: 'string' },
  'job-jar': { type: 'string' },
  with: { type: 'string', multiple: true },
} as const;

export async function readUserSchema(values: Record<string, unknown>): Promise<{ name: string; bytes: Uint8Array } | undefined> {
  const descriptors = values['descriptors'];
  const jobJar = values['job-jar'];
  const raw = values['with'];
  const withPaths = Array.isArray(raw) ? raw.map(String) : raw === undefined ? [] : [String(raw)];
  if (typeof descriptors === 'string' && typeof jobJar === 'string') throw new CliUsageError('give either --job-jar or --descriptors, not both');
  if (withPaths.length > 0 && typeof jobJar !== 'string') throw new CliUsageError("--with needs --job-jar (it adds jars the job jar's classes need)");
  if (typeof jobJar === 'string') {
    const jar = await readJobJar(jobJar, withPaths);
    return { name: `${path.basename(jobJar)} (embedded descriptors)`, bytes: jar.schema.descriptorSet };
  }
  if (typeof descriptors === 'string') return { name: path.basename(descriptors), bytes: await readDescriptorSetFile(descriptors) };
  return undefined;
}
