/**
 * The new schema of a check in the app: a descriptor set's bytes, or — for a dropped `.jar` — the
 * descriptors its protoc-generated classes embed, extracted here in the worker with the core's job-jar
 * reader (the jar is read by range from the Blob: its central directory and the candidate classes,
 * never whole), with what the jar tells for the report, as `check --job-jar <jar> --target <line>`
 * gives it.
 */
import { baseNameOf, readAll } from '../core/io';
import { extractJobJarSchema } from '../core/jar';
import { describeJobJarSchema, type CheckSavepointInput } from '../core/report';
import type { InputFile, InputFileDigest } from './inspector';
import { blobSource } from './sources';

export function isJobJarName(path: string): boolean {
  return path.toLowerCase().endsWith('.jar');
}

type NewSchema = Pick<CheckSavepointInput, 'descriptorSet' | 'jobJar'>;

/** Read once per dropped file: the check, the value scans (Kryo-held values) and the root picker all ask for it, and a jar's extraction is the costly part. */
const readSchemas = new WeakMap<InputFile, Promise<NewSchema>>();

export function readNewSchema(schema: InputFile, digests: readonly InputFileDigest[]): Promise<NewSchema> {
  let read = readSchemas.get(schema);
  if (read === undefined) {
    read = readNewSchemaOnce(schema, digests);
    readSchemas.set(schema, read);
    // a failure is not remembered: a retry reads again
    read.catch(() => readSchemas.delete(schema));
  }
  return read;
}

async function readNewSchemaOnce(schema: InputFile, digests: readonly InputFileDigest[]): Promise<NewSchema> {
  const source = blobSource(schema.blob, schema.path);
  if (!isJobJarName(schema.path)) return { descriptorSet: { name: schema.path, bytes: await readAll(source) } };
  const name = baseNameOf(schema.path);
  const extracted = await extractJobJarSchema(blobSource(schema.blob, name), [], { stringLiterals: true });
  const sha256 = digests.find((d) => d.path === schema.path)?.sha256;
  if (sha256 === undefined) throw new Error(`no SHA-256 was computed for the job jar ${schema.path}`);
  return {
    descriptorSet: { name: `${name} (embedded descriptors)`, bytes: extracted.descriptorSet },
    jobJar: {
      schema: describeJobJarSchema(extracted, { targetFromJar: false }),
      files: [{ role: 'job-jar', name, size: schema.blob.size, sha256 }],
      ...(extracted.stringLiterals ? { stringLiterals: extracted.stringLiterals } : {}),
    },
  };
}
