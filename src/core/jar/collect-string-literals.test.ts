import { describe, expect, it } from 'vitest';
import { bytesSource } from '../io';
import { collectStringLiterals } from './collect-string-literals';
import { ConstantPoolWriter, u2, writeClassFile } from './write-class-file';

function jobClass(): Uint8Array {
  const pool = new ConstantPoolWriter();
  const stream = 'org/apache/flink/streaming/api/datastream/SingleOutputStreamOperator';
  const uid = pool.methodRef(stream, 'uid', `(Ljava/lang/String;)L${stream};`);
  const name = pool.methodRef(stream, 'name', `(Ljava/lang/String;)L${stream};`);
  const code = [
    0x2a,
    0x12,
    pool.string('enricher'),
    0xb6,
    ...u2(uid),
    0x12,
    pool.string('Enricher'),
    0xb6,
    ...u2(name),
    0x13,
    ...u2(pool.string('last-seen')),
    0x57,
    0xb0,
  ];
  return writeClassFile(pool, 'com/acme/Job', [{ name: 'build', descriptor: `(L${stream};)L${stream};`, code }]);
}

describe('collectStringLiterals', () => {
  it("gathers the application classes' string constants and the constants passed to uid(String), leaving libraries and generated packages out", async () => {
    const file = (path: string, bytes: Uint8Array) => ({ path, source: bytesSource(`job.jar!/${path}`, bytes) });
    const library = writeClassFile(Object.assign(new ConstantPoolWriter(), {}), 'org/apache/flink/Lib', []);
    const result = await collectStringLiterals(
      [file('com/acme/Job.class', jobClass()), file('org/apache/flink/Lib.class', library), file('com/acme/gen/Outer.class', jobClass())],
      new Set(['com/acme/gen/']),
    );
    expect(result.values).toEqual(['Enricher', 'enricher', 'last-seen']);
    expect(result.uids).toEqual(['enricher']);
    expect(result.method).toBe(
      "string constants of 1 application class(es) of the job jar under com/acme/ (the packages of the generated classes and of the manifest's main class) (library and generated packages left out); a uid or state name built at run time is not seen",
    );
  });

  it("reads only the job's own packages of a fat jar (the generated classes' and the manifest's Main-Class), not a bundled library of an unlisted package", async () => {
    const file = (path: string, bytes: Uint8Array) => ({ path, source: bytesSource(`job.jar!/${path}`, bytes) });
    const filler = () => {
      const pool = new ConstantPoolWriter();
      pool.string('library-constant');
      return writeClassFile(pool, 'org/example/lib/Filler', []);
    };
    const manifest = new TextEncoder().encode('Manifest-Version: 1.0\r\nMain-Class: net.other.jobs.Stre\r\n amingJob\r\n\r\n');
    const result = await collectStringLiterals(
      [
        file('META-INF/MANIFEST.MF', manifest),
        file('net/other/jobs/StreamingJob.class', jobClass()),
        file('org/example/lib/Filler.class', filler()),
        file('com/acme/gen/Outer.class', jobClass()),
      ],
      new Set(['com/acme/gen/']),
    );
    expect(result.values).toEqual(['Enricher', 'enricher', 'last-seen']);
    expect(result.method).toContain('of 1 application class(es) of the job jar under com/acme/, net/other/ (');
    // without the job's packages among them, every class outside the listed libraries is read
    const fallback = await collectStringLiterals([file('org/example/lib/Filler.class', filler())], new Set(['com/acme/gen/']));
    expect(fallback.values).toEqual(['library-constant']);
    expect(fallback.method).toBe(
      'string constants of 1 application class(es) of the job jar (library and generated packages left out); a uid or state name built at run time is not seen',
    );
  });

  it("never counts the protobuf runtime's own packages (bundled or relocated) or a library's as the application's", async () => {
    const file = (path: string, bytes: Uint8Array) => ({ path, source: bytesSource(`job.jar!/${path}`, bytes) });
    // a shaded jar bundles protobuf-java, whose own generated classes (DescriptorProtos, the well-known types) sit in com/google/protobuf/;
    // a relocated runtime's sit in its new package
    const result = await collectStringLiterals(
      [
        file('com/acme/Job.class', jobClass()),
        file('com/acme/gen/Outer.class', jobClass()),
        file('com/google/protobuf/DescriptorProtos.class', jobClass()),
        file('org/relocated/pb/Any.class', jobClass()),
      ],
      new Set(['com/acme/gen/', 'com/google/protobuf/', 'org/relocated/pb/']),
      ['com.google.protobuf', 'org.relocated.pb'],
    );
    expect(result.method).toContain('of 1 application class(es) of the job jar under com/acme/ (');
    expect(result.classesRead).toBe(1);
  });
});
