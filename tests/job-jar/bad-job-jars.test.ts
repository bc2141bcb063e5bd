/**
 * Issue 18's bad inputs through the CLI, over the real fixture job jars (changed as each case needs):
 * each is refused with exit 2 and one exact message that names the file (and where known the entry,
 * offset and class), and nothing is reported as if the jar had been read.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync, zipSync, type Zippable } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { readClassFile } from '../../src/core/jar/read-class-file';

const JARS = path.resolve('fixtures/job-jars/jars');
const GENERATED = 'dev/savepointinspector/fixtures/generated/';

async function compare(jar: string, against: string, root: string, extra: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['compare', '--job-jar', jar, '--against', against, '--root', root, ...extra], {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { code, stdout, stderr };
}

describe('bad job jars: one exact message each, exit 2', () => {
  let dir: string;
  const entries = (name: string): Record<string, Uint8Array> => unzipSync(new Uint8Array(readFileSync(path.join(JARS, name))));
  const write = (name: string, bytes: Uint8Array): string => {
    const file = path.join(dir, name);
    writeFileSync(file, bytes);
    return file;
  };
  const thinSet = path.join(JARS, 'thin-4.36.2.binpb');
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'spi-bad-jars-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('a jar without generated Protobuf classes (the relocated fixture jar without its generated package)', async () => {
    const kept: Zippable = {};
    for (const [name, bytes] of Object.entries(entries('relocated-4.36.2.jar'))) if (!name.startsWith(GENERATED)) kept[name] = bytes;
    const classes = Object.keys(kept).filter((n) => n.endsWith('.class')).length;
    const r = await compare(write('no-gencode.jar', zipSync(kept, { level: 0 })), thinSet, 'fixtures.events.Event');
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `savepoint-inspector compare: expected protoc-generated Java classes (an outer class whose static initializer calls Descriptors.FileDescriptor.internalBuildGeneratedFileFrom) in the job jar, found none among its ${classes} classes (0 candidates in packages with *OrBuilder classes): ` +
        "pass the jar that holds the job's generated Protobuf classes (protoc --java_out; lite classes have no descriptors) — at no-gencode.jar [job jar]\n",
    ]);
  });

  it('a truncated jar (the thin fixture jar cut after 3,000 bytes)', async () => {
    const r = await compare(
      write('cut.jar', new Uint8Array(readFileSync(path.join(JARS, 'thin-4.36.2.jar'))).subarray(0, 3000)),
      thinSet,
      'fixtures.events.Event',
    );
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      'savepoint-inspector compare: expected a zip end-of-central-directory record (PK\\x05\\x06) in the last 3000 bytes, found none: the zip is truncated or damaged — at cut.jar, offset 0 (0x0) [job jar]\n',
    ]);
  });

  it('a generated class whose constant pool is broken names the class file inside the jar and the byte offset', async () => {
    const all = entries('thin-4.36.2.jar');
    const outer = `${GENERATED}EventMessages.class`;
    const broken = all[outer]!.slice();
    const count = ((broken[8]! << 8) | broken[9]!) - 1;
    broken[10] = 2; // the first constant pool entry's tag: 2 is no tag
    const r = await compare(write('broken-pool.jar', zipSync({ ...all, [outer]: broken })), thinSet, 'fixtures.events.Event');
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `savepoint-inspector compare: expected a constant pool tag (1, 3–12, 15–20) for entry 1 of ${count}, found 2: the constant pool is broken — at broken-pool.jar!/${outer}, offset 10 (0xa) [class file]\n`,
    ]);
  });

  // found by tests/robustness/fuzz-job-jars.test.ts (jar #87, #48): with its <clinit> emptied, the outer class was taken for
  // one that builds no descriptor, so `check` called every state's message missing from the new schema (incompatible, exit 1)
  it('a generated class whose <clinit> has code_length 0 (JVMS §4.7.3 forbids it) is refused at that offset, not read as a class without a descriptor', async () => {
    const all = entries('thin-4.36.2.jar');
    const outer = `${GENERATED}EventMessages.class`;
    const clinit = readClassFile(all[outer]!, outer).methods.find((m) => m.name === '<clinit>')!;
    const at = clinit.code!.codeOffset - 4;
    const broken = all[outer]!.slice();
    broken.fill(0, at, at + 4);
    const r = await compare(write('empty-clinit.jar', zipSync({ ...all, [outer]: broken })), thinSet, 'fixtures.events.Event');
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `savepoint-inspector compare: expected a code_length of 1 to 65535 bytes for method <clinit> (JVMS §4.7.3), found 0: the class file is broken — at empty-clinit.jar!/${outer}, offset ${at} (0x${at.toString(16)}) [class file]\n`,
    ]);
  });

  it('an import no class provides names the file, the class that needs it and the missing class, and suggests --with; with --with it reads', async () => {
    const r = await compare(path.join(JARS, 'wkt-thin-4.36.2.jar'), path.join(JARS, 'wkt-thin-4.36.2.binpb'), 'fixtures.stamped.Stamped');
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      'savepoint-inspector compare: expected a class providing the import google/protobuf/timestamp.proto of fixtures/stamped.proto (needed by dev.savepointinspector.fixtures.generated.StampedMessages), ' +
        'com.google.protobuf.TimestampProto, found it in none of the jars read (wkt-thin-4.36.2.jar): pass the jar that holds it with --with ' +
        '(a well-known type: the protobuf-java jar the cluster provides, when the job does not bundle it) — at wkt-thin-4.36.2.jar [job jar]\n',
    ]);
    const withJar = await compare(path.join(JARS, 'wkt-thin-4.36.2.jar'), path.join(JARS, 'wkt-thin-4.36.2.binpb'), 'fixtures.stamped.Stamped', [
      '--with',
      path.join(JARS, 'wkt-shaded-4.36.2.jar'),
      '--target',
      '1.x',
    ]);
    expect([withJar.code, withJar.stderr]).toEqual([0, '']);
  });

  it('a zip bomb (an 8 MiB entry of zeros added to the thin fixture jar) is refused before anything is inflated', async () => {
    const bomb = zipSync({ ...entries('thin-4.36.2.jar'), 'dev/savepointinspector/Zeros.class': new Uint8Array(8 * 1024 * 1024) }, { level: 9 });
    const r = await compare(write('bomb.jar', bomb), thinSet, 'fixtures.events.Event');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^savepoint-inspector compare: zip entry 'dev\/savepointinspector\/Zeros\.class' declares 8388608 bytes from \d+ compressed bytes \(ratio \d+:1\), above the limit of 200:1: refusing a possible zip bomb — at bomb\.jar, offset \d+ \(0x[0-9a-f]+\) \[job jar\]\n$/,
    );
  });
});
