/**
 * A wrong schema for Kryo-held Protobuf never crashes: a set without the state's Java class leaves the values
 * opaque with the class named; a set whose message of that class cannot parse the bytes (a proto2 required field
 * the saved values lack) shows each value as bytes with the class, the file and the offset of the failure.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { create, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';

const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/kryo-savepoints/flink-2.3/hashmap/kryo-registered/savepoint');
let dir = '';

async function dump(descriptors: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['dump', SAVEPOINT, '--operator', 'kryo-keyed', '--state', 'last-event', '--limit', '1', '--descriptors', descriptors], {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'kryo-bad-schema-'));
  const file = (javaOuter: string) =>
    toBinary(
      FileDescriptorSetSchema,
      create(FileDescriptorSetSchema, {
        file: [
          {
            name: 'fixtures/events.proto',
            package: 'fixtures.events',
            syntax: 'proto2',
            options: { javaPackage: 'dev.savepointinspector.fixtures.generated', javaOuterClassname: javaOuter },
            messageType: [{ name: 'Event', field: [{ name: 'never_saved', number: 999, label: 2, type: 9, jsonName: 'neverSaved' }] }],
          },
        ],
      }),
    );
  await writeFile(path.join(dir, 'required.binpb'), file('EventMessages'));
  await writeFile(path.join(dir, 'other-class.binpb'), file('OtherMessages'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('Kryo-held Protobuf with a wrong schema', () => {
  it('bytes the message cannot parse: the value as bytes, with the class, file and offset', async () => {
    const { code, stdout, stderr } = await dump(path.join(dir, 'required.binpb'));
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(
      /opaque\(53 bytes: value could not be decoded as Protobuf fixtures\.events\.Event via Kryo \(chill-protobuf\): Invalid Protobuf frame for dev\.savepointinspector\.fixtures\.generated\.EventMessages\$Event: Message missing required fields: never_saved — at savepoint\/[0-9a-f-]+, offset \d+ \(0x[0-9a-f]+\)\)/,
    );
  });

  it('a set without the Java class: the values stay opaque, the class named', async () => {
    const { code, stdout } = await dump(path.join(dir, 'other-class.binpb'));
    expect(code).toBe(0);
    expect(stdout).toContain(
      'opaque(53 bytes: value serializer Protobuf dev.savepointinspector.fixtures.generated.EventMessages$Event via Kryo (chill-protobuf); other-class.binpb has no message of this Java class',
    );
  });
});
