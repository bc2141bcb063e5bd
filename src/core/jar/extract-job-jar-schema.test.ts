import { create, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { zipSync, type Zippable } from 'fflate';
import { describe, expect, it } from 'vitest';
import { bytesSource } from '../io';
import { extractJobJarSchema } from './extract-job-jar-schema';
import { ConstantPoolWriter, writeClassFile, writeGencodeClass } from './write-class-file';

const fileProto = (name: string, deps: string[] = [], pkg = 'app', message = 'Event') =>
  toBinary(
    FileDescriptorProtoSchema,
    create(FileDescriptorProtoSchema, { name, package: pkg, dependency: deps, messageType: [{ name: message }], syntax: 'proto3' }),
  );
const plainClass = (name: string) => writeClassFile(new ConstantPoolWriter(), name, []);
const jar = (name: string, entries: Zippable) => bytesSource(name, zipSync(entries, { level: 6 }));

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
}

const APP = {
  'com/x/Events.class': writeGencodeClass({
    name: 'com/x/Events',
    descriptor: fileProto('app/events.proto', ['google/protobuf/timestamp.proto']),
    dependencies: ['shaded/com/google/protobuf/TimestampProto'],
    runtime: 'shaded/com/google/protobuf',
    gencodeVersion: [4, 36, 2],
  }),
  'com/x/Events$EventOrBuilder.class': plainClass('com/x/Events$EventOrBuilder'),
};

describe('extractJobJarSchema on built jars', () => {
  it('resolves an import through the class the bytecode names, not by file name, when a jar holds two runtimes', async () => {
    const stamp = (pkg: string) => fileProto('google/protobuf/timestamp.proto', [], 'google.protobuf', pkg);
    const schema = await extractJobJarSchema(
      jar('app.jar', {
        ...APP,
        'com/google/protobuf/TimestampProto.class': writeGencodeClass({ name: 'com/google/protobuf/TimestampProto', descriptor: stamp('Unshaded') }),
        'com/google/protobuf/Descriptors$FileDescriptor.class': plainClass('com/google/protobuf/Descriptors$FileDescriptor'),
        'shaded/com/google/protobuf/TimestampProto.class': writeGencodeClass({
          name: 'shaded/com/google/protobuf/TimestampProto',
          descriptor: stamp('Timestamp'),
          runtime: 'shaded/com/google/protobuf',
        }),
        'shaded/com/google/protobuf/Descriptors$FileDescriptor.class': plainClass('shaded/com/google/protobuf/Descriptors$FileDescriptor'),
        'shaded/com/google/protobuf/TimestampOrBuilder.class': plainClass('shaded/com/google/protobuf/TimestampOrBuilder'),
      }),
    );
    expect(schema.files.map((f) => [f.name, f.outerClass])).toEqual([
      ['google/protobuf/timestamp.proto', 'shaded.com.google.protobuf.TimestampProto'],
      ['app/events.proto', 'com.x.Events'],
    ]);
    expect(schema.messages).toEqual([{ fullName: 'app.Event', javaClass: 'com.x.Events$Event', file: 'app/events.proto' }]);
    expect(schema.gencodeVersions).toEqual(['4.36.2']);
    expect(schema.runtimePackages).toEqual([{ name: 'shaded.com.google.protobuf', relocated: true }]);
    // only the candidate and the class it names were read: the runtime packages are never candidates
    expect(schema.stats.classesRead).toBe(2);
  });

  it('an import that no class provides names the file, the class that needs it, and suggests --with', async () => {
    expect(await failure(extractJobJarSchema(jar('app.jar', APP), [jar('other.jar', { 'a/B.class': plainClass('a/B') })]))).toBe(
      'expected a class providing the import google/protobuf/timestamp.proto of app/events.proto (needed by com.x.Events), shaded.com.google.protobuf.TimestampProto, found it in none of the jars read (app.jar, other.jar): ' +
        'pass the jar that holds it with --with (a well-known type: the protobuf-java jar the cluster provides, when the job does not bundle it) — at app.jar [job jar]',
    );
  });

  it('a jar without generated Protobuf classes', async () => {
    expect(
      await failure(
        extractJobJarSchema(
          jar('lib.jar', {
            'com/x/Foo.class': plainClass('com/x/Foo'),
            'com/x/FooOrBuilder.class': plainClass('com/x/FooOrBuilder'),
            'README.txt': new Uint8Array(3),
          }),
        ),
      ),
    ).toBe(
      'expected protoc-generated Java classes (an outer class whose static initializer calls Descriptors.FileDescriptor.internalBuildGeneratedFileFrom) in the job jar, found none among its 2 classes (2 candidates in packages with *OrBuilder classes): ' +
        "pass the jar that holds the job's generated Protobuf classes (protoc --java_out; lite classes have no descriptors) — at lib.jar [job jar]",
    );
  });

  it('a truncated jar, a file that is no jar, a broken constant pool and a zip bomb', async () => {
    const whole = zipSync(APP);
    expect(await failure(extractJobJarSchema(bytesSource('cut.jar', whole.subarray(0, whole.length - 30))))).toMatch(
      /^expected a zip end-of-central-directory record \(PK\\x05\\x06\) in the last \d+ bytes, found none: the zip is truncated or damaged — at cut\.jar, offset 0 \(0x0\) \[job jar\]$/,
    );
    expect(await failure(extractJobJarSchema(bytesSource('set.binpb', Uint8Array.of(0x0a, 0x03, 0x61, 0x62, 0x63))))).toBe(
      'expected a jar (a zip archive, PK\\x03\\x04), found bytes 0a 03 61 62 — at set.binpb, offset 0 (0x0) [job jar]',
    );
    const broken = writeGencodeClass({ name: 'com/x/Events', descriptor: fileProto('app/events.proto') });
    broken[10] = 2; // the first constant pool entry's tag
    expect(await failure(extractJobJarSchema(jar('app.jar', { ...APP, 'com/x/Events.class': broken })))).toMatch(
      /^expected a constant pool tag \(1, 3–12, 15–20\) for entry 1 of \d+, found 2: the constant pool is broken — at app\.jar!\/com\/x\/Events\.class, offset 10 \(0xa\) \[class file\]$/,
    );
    const bomb = zipSync({ ...APP, 'com/x/Zeros.class': new Uint8Array(8 * 1024 * 1024) }, { level: 9 });
    expect(await failure(extractJobJarSchema(bytesSource('bomb.jar', bomb)))).toMatch(
      /^zip entry 'com\/x\/Zeros\.class' declares 8388608 bytes from \d+ compressed bytes \(ratio \d+:1\), above the limit of 200:1: refusing a possible zip bomb — at bomb\.jar, offset \d+ \(0x[0-9a-f]+\) \[job jar\]$/,
    );
  });
});

describe('extractJobJarSchema on a fat jar with two protobuf runtimes', () => {
  const plugin = (message: string) => fileProto('google/protobuf/compiler/plugin.proto', [], 'google.protobuf.compiler', message);
  // the application's com.google.protobuf and a connector's relocated copy, each with its own compiler/PluginProtos (of other versions)
  const TWO_RUNTIMES = {
    'com/x/Events.class': writeGencodeClass({ name: 'com/x/Events', descriptor: fileProto('app/events.proto'), gencodeVersion: [4, 36, 2] }),
    'com/x/Events$EventOrBuilder.class': plainClass('com/x/Events$EventOrBuilder'),
    'com/google/protobuf/Descriptors$FileDescriptor.class': plainClass('com/google/protobuf/Descriptors$FileDescriptor'),
    'com/google/protobuf/compiler/PluginProtos.class': writeGencodeClass({
      name: 'com/google/protobuf/compiler/PluginProtos',
      descriptor: plugin('CodeGeneratorRequest'),
    }),
    'com/google/protobuf/compiler/PluginProtos$CodeGeneratorRequestOrBuilder.class': plainClass(
      'com/google/protobuf/compiler/PluginProtos$CodeGeneratorRequestOrBuilder',
    ),
    'conn/shaded/com/google/protobuf/Descriptors$FileDescriptor.class': plainClass('conn/shaded/com/google/protobuf/Descriptors$FileDescriptor'),
    'conn/shaded/com/google/protobuf/compiler/PluginProtos.class': writeGencodeClass({
      name: 'conn/shaded/com/google/protobuf/compiler/PluginProtos',
      descriptor: plugin('Version'),
      runtime: 'conn/shaded/com/google/protobuf',
    }),
    'conn/shaded/com/google/protobuf/compiler/PluginProtos$VersionOrBuilder.class': plainClass(
      'conn/shaded/com/google/protobuf/compiler/PluginProtos$VersionOrBuilder',
    ),
  };

  it("reads the job's schema: the runtimes' own files (compiler/plugin.proto of each) are not the job's, and nothing reaches them", async () => {
    const schema = await extractJobJarSchema(jar('fat.jar', TWO_RUNTIMES));
    expect(schema.files.map((f) => [f.name, f.outerClass])).toEqual([['app/events.proto', 'com.x.Events']]);
    expect(schema.conflicts).toBeUndefined();
    expect(schema.warnings).toEqual([]);
  });

  it("two versions of a file the job's files reach: the schema keeps the first, the conflict names both classes", async () => {
    const stamp = (message: string) => fileProto('google/protobuf/timestamp.proto', [], 'google.protobuf', message);
    const schema = await extractJobJarSchema(
      jar('fat.jar', {
        ...TWO_RUNTIMES,
        'com/x/Events.class': writeGencodeClass({
          name: 'com/x/Events',
          descriptor: fileProto('app/events.proto', ['google/protobuf/timestamp.proto']),
          dependencies: ['com/google/protobuf/TimestampProto'],
        }),
        'com/google/protobuf/TimestampProto.class': writeGencodeClass({ name: 'com/google/protobuf/TimestampProto', descriptor: stamp('Timestamp') }),
        'com/y/Other.class': writeGencodeClass({
          name: 'com/y/Other',
          descriptor: fileProto('app/other.proto', ['google/protobuf/timestamp.proto'], 'app', 'Other'),
          dependencies: ['conn/shaded/com/google/protobuf/TimestampProto'],
          runtime: 'conn/shaded/com/google/protobuf',
        }),
        'com/y/Other$OtherOrBuilder.class': plainClass('com/y/Other$OtherOrBuilder'),
        'conn/shaded/com/google/protobuf/TimestampProto.class': writeGencodeClass({
          name: 'conn/shaded/com/google/protobuf/TimestampProto',
          descriptor: stamp('OldTimestamp'),
          runtime: 'conn/shaded/com/google/protobuf',
        }),
      }),
    );
    expect(schema.files.map((f) => [f.name, f.outerClass])).toEqual([
      ['google/protobuf/timestamp.proto', 'com.google.protobuf.TimestampProto'],
      ['app/events.proto', 'com.x.Events'],
      ['app/other.proto', 'com.y.Other'],
    ]);
    expect(schema.conflicts).toEqual([
      {
        file: 'google/protobuf/timestamp.proto',
        kept: { outerClass: 'com.google.protobuf.TimestampProto', jar: 'fat.jar' },
        other: { outerClass: 'conn.shaded.com.google.protobuf.TimestampProto', jar: 'fat.jar' },
      },
    ]);
    expect(schema.warnings).toEqual([
      'two different descriptors of google/protobuf/timestamp.proto are reached: built by com.google.protobuf.TimestampProto (fat.jar) and by conn.shaded.com.google.protobuf.TimestampProto (fat.jar); ' +
        "the schema uses com.google.protobuf.TimestampProto's, so a state whose types reach google/protobuf/timestamp.proto is checked against that version only",
    ]);
  });
});
