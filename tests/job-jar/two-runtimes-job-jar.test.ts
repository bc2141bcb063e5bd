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
  toBinary(
    FileDescriptorProtoSchema,
    create(FileDescriptorProtoSchema, {
      name: 'google/protobuf/compiler/plugin.proto',
      package: 'google.protobuf.compiler',
      messageType: [{ name: message }],
      syntax: 'proto2',
    }),
  );
const plainClass = (name: string) => writeClassFile(new ConstantPoolWriter(), name, []);

let dir = '';
let fatJar = '';
let reachedConflictJar = '';
let unreachedConflictJar = '';

/** fixtures/common.proto as a connector's own generated class embeds it: another version than the job's (a message more). */
const otherCommon = () =>
  toBinary(
    FileDescriptorProtoSchema,
    create(FileDescriptorProtoSchema, {
      name: 'fixtures/common.proto',
      package: 'fixtures.common',
      messageType: [{ name: 'Detail' }, { name: 'Extra' }],
      syntax: 'proto3',
    }),
  );
const connectorFile = (message: string) =>
  toBinary(
    FileDescriptorProtoSchema,
    create(FileDescriptorProtoSchema, { name: 'connector/config.proto', package: 'connector', messageType: [{ name: message }], syntax: 'proto3' }),
  );

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'two-runtimes-'));
  const entries: Record<string, Uint8Array> = unzipSync(await readFile(path.resolve('fixtures/job-jars/jars/shaded-4.36.2.jar')));
  const relocated = 'org/connector/shaded/com/google/protobuf';
  entries['com/google/protobuf/compiler/PluginProtos.class'] = writeGencodeClass({
    name: 'com/google/protobuf/compiler/PluginProtos',
    descriptor: plugin('CodeGeneratorRequest'),
    gencodeVersion: [4, 36, 2],
  });
  entries['com/google/protobuf/compiler/PluginProtos$CodeGeneratorRequestOrBuilder.class'] = plainClass(
    'com/google/protobuf/compiler/PluginProtos$CodeGeneratorRequestOrBuilder',
  );
  entries[`${relocated}/Descriptors$FileDescriptor.class`] = plainClass(`${relocated}/Descriptors$FileDescriptor`);
  entries[`${relocated}/compiler/PluginProtos.class`] = writeGencodeClass({
    name: `${relocated}/compiler/PluginProtos`,
    descriptor: plugin('Version'),
    runtime: relocated,
  });
  entries[`${relocated}/compiler/PluginProtos$VersionOrBuilder.class`] = plainClass(`${relocated}/compiler/PluginProtos$VersionOrBuilder`);
  fatJar = path.join(dir, 'fat-two-runtimes.jar');
  await writeFile(fatJar, zipSync(entries, { level: 6 }));

  // the connector's own generated classes (its relocated runtime) embed fixtures/common.proto in another version: a file every state's root reaches
  const reached: Record<string, Uint8Array> = { ...entries };
  reached['org/connector/gen/ConnectorCommon.class'] = writeGencodeClass({
    name: 'org/connector/gen/ConnectorCommon',
    descriptor: otherCommon(),
    runtime: relocated,
  });
  reached['org/connector/gen/ConnectorCommon$ExtraOrBuilder.class'] = plainClass('org/connector/gen/ConnectorCommon$ExtraOrBuilder');
  reachedConflictJar = path.join(dir, 'fat-common-twice.jar');
  await writeFile(reachedConflictJar, zipSync(reached, { level: 6 }));

  // two connector classes embed two versions of connector/config.proto: a real conflict, but no state's root reaches that file
  const unreached: Record<string, Uint8Array> = { ...entries };
  unreached['org/connector/gen/ConfigA.class'] = writeGencodeClass({
    name: 'org/connector/gen/ConfigA',
    descriptor: connectorFile('Config'),
    runtime: relocated,
  });
  unreached['org/connector/gen/ConfigB.class'] = writeGencodeClass({
    name: 'org/connector/gen/ConfigB',
    descriptor: connectorFile('Settings'),
    runtime: relocated,
  });
  unreached['org/connector/gen/ConfigA$ConfigOrBuilder.class'] = plainClass('org/connector/gen/ConfigA$ConfigOrBuilder');
  unreachedConflictJar = path.join(dir, 'fat-config-twice.jar');
  await writeFile(unreachedConflictJar, zipSync(unreached, { level: 6 }));
});

async function checkJson(jar: string): Promise<{
  code: number;
  stderr: string;
  report: {
    verdict: string;
    states: {
      state: string;
      verdict: string;
      findings: { ruleId: string; message: string }[];
      firstIncompatibility: { ruleId: string; message: string } | null;
    }[];
    newSchema: { jobJar: { warnings: string[] } };
  };
}> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['check', SAVEPOINT, '--job-jar', jar, '--no-values', '--format', 'json'], {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { code, stderr, report: JSON.parse(stdout) as never };
}

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a job jar bundling two protobuf runtimes', () => {
  it("check reads the schema the job's classes reach and gives the verdict (no refusal over plugin.proto)", async () => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(['check', SAVEPOINT, '--job-jar', fatJar, '--no-values', '--format', 'json'], {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
    });
    expect(stderr).toBe('');
    const report = JSON.parse(stdout) as { verdict: string; newSchema: { jobJar: { files: { name: string }[]; warnings: string[] } } };
    expect(report.verdict).toBe('compatible');
    expect(report.newSchema.jobJar.files.map((f) => f.name)).not.toContain('google/protobuf/compiler/plugin.proto');
    expect(code).toBe(0);
  });

  it("a real conflict on a file a state's root reaches is a finding of that state naming both classes: the check cannot tell which version its classes use, so the state does not pass", async () => {
    const { code, stderr, report } = await checkJson(reachedConflictJar);
    expect(stderr).toBe('');
    const protobuf = report.states.filter((s) => s.verdict !== 'unknown');
    expect(protobuf.length).toBe(9);
    const message =
      "fixtures/common.proto, which the root reaches, is embedded in two different versions in the job jar: by dev.savepointinspector.fixtures.generated.CommonMessages (fat-common-twice.jar) and by org.connector.gen.ConnectorCommon (fat-common-twice.jar); the check used the first, and the state's generated classes may build the other at run time, so this state is not passed: bundle one version of the file (exclude or relocate the other copy)";
    for (const s of protobuf) {
      expect(s.verdict, s.state).toBe('incompatible');
      expect(
        s.findings.filter((f) => f.ruleId === 'JOB_JAR_DESCRIPTOR_CONFLICT').map((f) => f.message),
        s.state,
      ).toEqual([message]);
    }
    expect(report.verdict).toBe('incompatible');
    expect(code).toBe(1);
  });

  it("a conflict on a file no state's root reaches stays a job-jar warning and changes no verdict", async () => {
    const { code, stderr, report } = await checkJson(unreachedConflictJar);
    expect(stderr).toBe('');
    expect(report.newSchema.jobJar.warnings.some((w) => w.startsWith('two different descriptors of connector/config.proto are reached'))).toBe(true);
    expect(report.states.flatMap((s) => s.findings).filter((f) => f.ruleId === 'JOB_JAR_DESCRIPTOR_CONFLICT')).toEqual([]);
    expect(report.verdict).toBe('compatible');
    expect(code).toBe(0);
  });
});
