/**
 * The usual fat jar: the fixture's shaded job jar (the application's com.google.protobuf, protobuf-java 4.36.2)
 * plus a connector's relocated protobuf runtime whose compiler/PluginProtos embeds another version of
 * google/protobuf/compiler/plugin.proto than the application runtime's own. Nothing the job's classes import
 * reaches plugin.proto, so the jar is read and `check` gives its verdict (it was refused: exit 2).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { create, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConstantPoolWriter, writeClassFile, writeGencodeClass } from '../../src/core/jar/write-class-file';
import { runCli } from '../../src/cli/run-cli';

const SAVEPOINT = path.resolve('fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');
const plugin = (message: string) =>
  toBinary(FileDescriptorProtoSchema, create(FileDescriptorProtoSchema, { name: 'google/protobuf/compiler/plugin.proto', package: 'google.protobuf.compiler', messageType: [{ name: message }], syntax: 'proto2' }));
const plainClass = (name: string) => writeClassFile(new ConstantPoolWriter(), name, []);

let dir = '';
let fatJar = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'two-runtimes-'));
  const entries: Record<string, Uint8Array> = unzipSync(await readFile(path.resolve('fixtures/job-jars/jars/shaded-4.36.2.jar')));
  const relocated = 'org/connector/shaded/com/google/protobuf';
  entries['com/google/protobuf/compiler/PluginProtos.class'] = writeGencodeClass({ name: 'com/google/protobuf/compiler/PluginProtos', descriptor: plugin('CodeGeneratorRequest'), gencodeVersion: [4, 36, 2] });
  entries['com/google/protobuf/compiler/PluginProtos$CodeGeneratorRequestOrBuilder.class'] = plainClass('com/google/protobuf/compiler/PluginProtos$CodeGeneratorRequestOrBuilder');
  entries[`${relocated}/Descriptors$FileDescriptor.class`] = plainClass(`${relocated}/Descriptors$FileDescriptor`);
  entries[`${relocated}/compiler/PluginProtos.class`] = writeGencodeClass({ name: `${relocated}/compiler/PluginProtos`, descriptor: plugin('Version'), runtime: relocated });
  entries[`${relocated}/compiler/PluginProtos$VersionOrBuilder.class`] = plainClass(`${relocated}/compiler/PluginProtos$VersionOrBuilder`);
  fatJar = path.join(dir, 'fat-two-runtimes.jar');
  await writeFile(fatJar, zipSync(entries, { level: 6 }));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a job jar bundling two protobuf runtimes', () => {
  it('check reads the schema the job\'s classes reach and gives the verdict (no refusal over plugin.proto)', async () => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(['check', SAVEPOINT, '--job-jar', fatJar, '--no-values', '--format', 'json'], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
    expect(stderr).toBe('');
    const report = JSON.parse(stdout) as { verdict: string; newSchema: { jobJar: { files: { name: string }[]; warnings: string[] } } };
    expect(report.verdict).toBe('compatible');
    expect(report.newSchema.jobJar.files.map((f) => f.name)).not.toContain('google/protobuf/compiler/plugin.proto');
    expect(code).toBe(0);
  });
});
