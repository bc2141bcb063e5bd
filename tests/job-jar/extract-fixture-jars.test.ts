/**
 * Golden: the schema read from the fixture job jars (fixtures/job-jars, built by Maven with protoc
 * 4.36.2 and 3.25.9: thin, shaded, shaded with com.google.protobuf relocated) is, once normalized as
 * the serializer does (ProtobufSchema.normalize), byte for byte the schema saved in every Protobuf
 * state of every fixture savepoint — and what the jar tells (Java classes, gencode version, runtime
 * package, library line, pom.properties) is what the build put in.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectProtobufStates } from '../../src/core/compat';
import { bytesSource } from '../../src/core/io';
import { extractJobJarSchema } from '../../src/core/jar';
import { normalizeDescriptorSet, parseDescriptorSet } from '../../src/core/protobuf';
import { openNodeInput } from '../../src/cli/sources';
import { expectSameBytes } from '../helpers/expect-same-bytes';

const JARS = path.resolve('fixtures/job-jars/jars');
const jarSource = (name: string) => bytesSource(name, new Uint8Array(readFileSync(path.join(JARS, name))));
/** committed jars; the others (built by fixtures/job-jars/build.mjs) are checked when present */
const COMMITTED = ['thin-4.36.2.jar', 'thin-3.25.9.jar', 'relocated-4.36.2.jar', 'shaded-3.25.9.jar', 'shaded-4.36.2.jar'];
const BUILT = ['relocated-3.25.9.jar'].filter((n) => existsSync(path.join(JARS, n)));

function listFixtureSavepoints(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (!statSync(full).isDirectory()) continue;
      if (name === 'savepoint') out.push(full);
      else walk(full);
    }
  };
  walk(path.resolve('fixtures/savepoints'));
  return out.sort();
}

describe('the fixture job jars as the schema', () => {
  const savepoints = listFixtureSavepoints();
  it('finds the fixture savepoints', () => expect(savepoints.length).toBeGreaterThanOrEqual(10));

  for (const jar of [...COMMITTED, ...BUILT]) {
    it(`${jar}: normalized, the extracted set is the saved schema of every Protobuf state, byte for byte`, async () => {
      const schema = await extractJobJarSchema(jarSource(jar));
      const extracted = parseDescriptorSet(schema.descriptorSet);
      let states = 0;
      for (const folder of savepoints) {
        const { protobuf } = await inspectProtobufStates(await openNodeInput(folder));
        for (const state of protobuf) {
          expectSameBytes(normalizeDescriptorSet(extracted, state.content.rootFullName).bytes, state.content.descriptorBytes);
          expect(schema.messages.find((m) => m.fullName === state.content.rootFullName)?.javaClass).toBe(state.content.javaClass);
          states++;
        }
      }
      expect(states).toBeGreaterThan(20);
    });
  }

  it('tells the gencode version, the runtime package and what the jar bundles', async () => {
    const thin4 = await extractJobJarSchema(jarSource('thin-4.36.2.jar'));
    expect(thin4.gencodeVersions).toEqual(['4.36.2']);
    expect(thin4.runtimePackages).toEqual([{ name: 'com.google.protobuf', relocated: false }]);
    expect(thin4.library).toEqual({ line: '0.x', evidence: 'snapshot class io.github.flink.gcp.protobuf.ProtobufTypeSerializerSnapshot (0.x milestones)' });
    expect(thin4.flink).toBeUndefined();
    expect(thin4.artifacts.map((a) => `${a.groupId}:${a.artifactId}:${a.version}`)).toEqual(['dev.savepoint-inspector:job-jars:0.1.0']);
    expect(thin4.files.map((f) => [f.name, f.outerClass])).toEqual([
      ['fixtures/common.proto', 'dev.savepointinspector.fixtures.generated.CommonMessages'],
      ['fixtures/events.proto', 'dev.savepointinspector.fixtures.generated.EventMessages'],
    ]);
    expect(thin4.messages.map((m) => m.javaClass)).toContain('dev.savepointinspector.fixtures.generated.EventMessages$Event$Location');
    expect(thin4.stats.classesRead).toBe(2);

    const thin3 = await extractJobJarSchema(jarSource('thin-3.25.9.jar'));
    expect(thin3.gencodeVersions).toEqual(['3.x or older (no RuntimeVersion check)']);

    const relocated = await extractJobJarSchema(jarSource('relocated-4.36.2.jar'));
    expect(relocated.runtimePackages).toEqual([{ name: 'dev.savepointinspector.shaded.com.google.protobuf', relocated: true }]);
    // protobuf-java's own jar (built by Bazel) carries no pom.properties: only the job's artifact is told
    expect(relocated.artifacts.map((a) => `${a.groupId}:${a.artifactId}:${a.version}`)).toEqual(['dev.savepoint-inspector:job-jars:0.1.0']);
    // only the two generated outer classes are inflated, not the ~500 bundled protobuf-java classes
    expect(relocated.stats.classesRead).toBe(2);
    expect(relocated.stats.entries).toBeGreaterThan(500);
  });

  it('resolves a well-known import through the class the bytecode names, from a --with jar', async () => {
    const schema = await extractJobJarSchema(jarSource('wkt-thin-4.36.2.jar'), [jarSource('wkt-shaded-4.36.2.jar')]);
    expect(schema.files.map((f) => [f.name, f.outerClass, f.jar])).toEqual([
      ['google/protobuf/timestamp.proto', 'com.google.protobuf.TimestampProto', 'wkt-shaded-4.36.2.jar'],
      ['fixtures/stamped.proto', 'dev.savepointinspector.fixtures.generated.StampedMessages', 'wkt-thin-4.36.2.jar'],
    ]);
    // the well-known file is the one protoc compiled from the same protobuf-java's timestamp.proto
    const protoc = parseDescriptorSet(new Uint8Array(readFileSync(path.join(JARS, 'wkt-thin-4.36.2.binpb'))));
    expect(normalizeDescriptorSet(parseDescriptorSet(schema.descriptorSet), 'fixtures.stamped.Stamped').fileNames).toEqual(
      normalizeDescriptorSet(protoc, 'fixtures.stamped.Stamped').fileNames,
    );
  });
});
