/**
 * Differential test against protobuf-java itself: thousands of random and mutated payloads are
 * parsed by protobuf-java 4.36.2 (tests/protobuf/java-oracle, DynamicMessage under the serializer's
 * CodedInputStream settings) and by decodeProtobufPayload; both must fail with the same text or
 * re-serialize to the same bytes (merging, last-wins, unknown-field order, packed, closed enums,
 * groups, depth). Needs java/javac and the protobuf-java jar in the local Maven repository; skipped
 * with a message otherwise. Schemas without map fields (DynamicMessage keeps map entries as plain
 * repeated messages, unlike generated code); values whose proto2 strings hold invalid UTF-8 are
 * left out (DynamicMessage decodes them eagerly, generated code keeps the bytes).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { ScalarType, type DescMessage } from '@bufbuild/protobuf';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeProtobufPayload, normalizeDescriptorSet, parseDescriptorSet, walkMessages } from '../../src/core/protobuf';
import { decodeUtf8 } from '../../src/core/protobuf/decode-utf8';
import { encodeProtobufMessage } from '../../src/core/protobuf/encode-protobuf-message';
import { ProtobufParseError } from '../../src/core/protobuf/protobuf-errors';
import { type PbMessage } from '../../src/core/protobuf/protobuf-message-types';
import { buildTestDescriptorSet } from './protobuf-test-schemas';
import { formatHex } from '../../src/core/io';

const JAR = path.join(homedir(), '.m2/repository/com/google/protobuf/protobuf-java/4.36.2/protobuf-java-4.36.2.jar');
const hasTool = (cmd: string) => {
  try {
    execFileSync(cmd, ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const ready = existsSync(JAR) && hasTool('java') && hasTool('javac');
if (!ready) console.warn(`skipping the protobuf-java differential test: needs java, javac and ${JAR}`);

function hasInvalidProto2String(msg: PbMessage): boolean {
  let found = false;
  walkMessages(msg, '', (m) => {
    for (const fv of m.fields.values()) {
      const field = fv.field;
      const isString =
        field.fieldKind === 'scalar'
          ? field.scalar === ScalarType.STRING
          : field.fieldKind === 'list' && field.listKind === 'scalar' && field.scalar === ScalarType.STRING;
      if (!isString || field.utf8Validation) continue;
      const values = fv.kind === 'singular' ? [fv.value] : fv.kind === 'list' ? fv.values : [];
      for (const v of values) if (v instanceof Uint8Array && decodeUtf8(v) === undefined) found = true;
    }
  });
  return found;
}

const cases: { dir: string; root: string; seeds: string[] }[] = [
  {
    dir: 'snapshot',
    root: 'flink.protobuf.snapshot.Envelope',
    seeds: ['082a12070a0573617665641a02080720012a080a066e6573746564a00663', '1a061a041a0212000a020801', 'a306080100a406'],
  },
  {
    dir: 'legacy',
    root: 'flink.protobuf.legacy.LegacyMessage',
    seeds: ['0a0261283b08053c400540014a030107004809480 1'.replace(/ /g, ''), '3ba3060801a4063c4a00'],
  },
  {
    dir: 'serializer',
    root: 'flink.protobuf.serializer.FlatMessage',
    seeds: [
      '0a052a03010203320201023201093a0201023804',
      '42016152017848055a0aff',
      '8a0110010000000000000002000000000000009201020102900103',
      '71000000000000f87f6801580a',
      '0a040a020a00120212001200',
    ],
  },
];

function samplePayloads(seeds: string[]): [Uint8Array, number][] {
  const bufs = seeds.map((h) => Uint8Array.from(Buffer.from(h, 'hex')));
  const payload = fc.oneof(
    fc.uint8Array({ maxLength: 30 }),
    fc.tuple(fc.constantFrom(...bufs), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 3 })).map(([v, edits]) => {
      const c = Uint8Array.from(v);
      for (const [i, b] of edits) c[i % c.length] = b;
      return c;
    }),
    fc.tuple(fc.constantFrom(...bufs), fc.nat()).map(([v, n]) => v.subarray(0, n % (v.length + 1))),
    fc.tuple(fc.constantFrom(...bufs), fc.constantFrom(...bufs)).map(([a, b]) => Uint8Array.from([...a, ...b])),
  );
  return fc.sample(fc.tuple(payload, fc.integer({ min: 1, max: 4 })), { numRuns: 3000, seed: 42 });
}

function decodeLikeJava(p: Uint8Array, desc: DescMessage, limit: number): string {
  try {
    return `OK ${formatHex(encodeProtobufMessage(decodeProtobufPayload(p, desc, { maxMessageSize: 1000, recursionLimit: limit }).message))}`;
  } catch (e) {
    if (!(e instanceof ProtobufParseError)) throw e;
    return `ERR ${e.message}`;
  }
}

describe.skipIf(!ready)('decodeProtobufPayload against protobuf-java 4.36.2', () => {
  const classes = mkdtempSync(path.join(tmpdir(), 'protobuf-java-oracle-'));
  beforeAll(() => {
    execFileSync('javac', ['-cp', JAR, '-d', classes, path.resolve(process.cwd(), 'tests/protobuf/java-oracle/ProtobufJavaOracle.java')]);
  });

  it.each(cases)('$root', ({ dir, root, seeds }) => {
    const setFile = path.join(classes, `${dir}.binpb`);
    writeFileSync(setFile, buildTestDescriptorSet(dir));
    const desc = normalizeDescriptorSet(parseDescriptorSet(buildTestDescriptorSet(dir)), root).root;
    const samples = samplePayloads(seeds);
    const input = samples.map(([p, limit]) => `${limit} ${formatHex(p)}`).join('\n') + '\n';
    const java = execFileSync('java', ['-cp', `${JAR}${path.delimiter}${classes}`, 'ProtobufJavaOracle', setFile, root, '1000'], { input, maxBuffer: 1 << 26 })
      .toString()
      .trim()
      .split('\n');
    expect(java).toHaveLength(samples.length);
    let compared = 0;
    samples.forEach(([p, limit], i) => {
      let mine: string;
      try {
        const d = decodeProtobufPayload(p, desc, { maxMessageSize: 1000, recursionLimit: limit });
        if (hasInvalidProto2String(d.message)) return;
        mine = `OK ${formatHex(encodeProtobufMessage(d.message))}`;
      } catch (e) {
        if (!(e instanceof ProtobufParseError)) throw e;
        mine = `ERR ${e.message}`;
      }
      expect(mine, `payload ${formatHex(p)}, recursionLimit ${limit}`).toBe(java[i]);
      compared++;
    });
    expect(compared).toBeGreaterThan(2500);
  });
});

/**
 * The same with protoc-generated classes (protoc 4.36.2 from the local Maven repository), i.e. the
 * serializer's own parsing path, which also covers map fields and proto2 strings kept as bytes.
 */
const PROTOC = path.join(homedir(), '.m2/repository/com/google/protobuf/protoc/4.36.2/protoc-4.36.2-linux-x86_64.exe');
const generatedReady = ready && existsSync(PROTOC) && process.platform === 'linux' && process.arch === 'x64';
if (ready && !generatedReady) console.warn(`skipping the generated-code differential test: needs ${PROTOC} on linux-x64`);

const generatedCases: { dir: string; root: string; javaClass: string; seeds: string[] }[] = [
  {
    dir: 'serializer',
    root: 'flink.protobuf.serializer.RecursiveMessage',
    javaClass: 'flink.protobuf.serializer.Serializer$RecursiveMessage',
    seeds: [
      '1a070a016b12020a00',
      '22050a016b1001220a0a016b1002',
      '22050a016b1005220b0a016b10021801',
      '0a052a03010203320201023201093a020102',
      '42016152017848055a0aff',
      '1a0a0a016b12050a0312010a',
    ],
  },
  {
    dir: 'snapshot',
    root: 'flink.protobuf.snapshot.Envelope',
    javaClass: 'io.github.flink.gcp.protobuf.snapshotgenerated.SnapshotMessages$Envelope',
    seeds: ['082a12070a0573617665641a02080720012a080a066e6573746564a00663', '1a061a041a0212000a020801'],
  },
  {
    dir: 'legacy',
    root: 'flink.protobuf.legacy.LegacyMessage',
    javaClass: 'flink.protobuf.legacy.Legacy$LegacyMessage',
    seeds: ['0a02c3283b08053c400540014a0301070048094801', '3ba3060801a4063c4a00'],
  },
  {
    dir: 'legacy',
    root: 'flink.protobuf.legacy.RequiredMessage',
    javaClass: 'flink.protobuf.legacy.Legacy$RequiredMessage',
    seeds: ['0801', '08011203080201', '120208011202'],
  },
];

describe.skipIf(!generatedReady)('decodeProtobufPayload against protoc-generated protobuf-java 4.36.2 classes', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'protobuf-java-generated-'));
  beforeAll(() => {
    const protoc = path.join(work, 'protoc');
    copyFileSync(PROTOC, protoc);
    chmodSync(protoc, 0o755);
    const testdata = path.resolve(process.cwd(), 'src/core/protobuf/testdata');
    mkdirSync(path.join(work, 'java'));
    execFileSync(protoc, [
      '-I',
      `${testdata}/serializer`,
      '-I',
      `${testdata}/legacy`,
      '-I',
      `${testdata}/snapshot`,
      `--java_out=${path.join(work, 'java')}`,
      'serializer.proto',
      'legacy.proto',
      'snapshot.proto',
      'snapshot_dependency.proto',
    ]);
    const sources = [
      'flink/protobuf/serializer/Serializer.java',
      'flink/protobuf/legacy/Legacy.java',
      'io/github/flink/gcp/protobuf/snapshotgenerated/SnapshotMessages.java',
      'io/github/flink/gcp/protobuf/snapshotgenerated/SnapshotDependencies.java',
    ];
    execFileSync(
      'javac',
      [
        '-nowarn',
        '-cp',
        JAR,
        '-d',
        path.join(work, 'classes'),
        ...sources.map((f) => path.join(work, 'java', f)),
        path.resolve(process.cwd(), 'tests/protobuf/java-oracle/ProtobufJavaGeneratedOracle.java'),
      ],
      { stdio: 'ignore' },
    );
  });

  it.each(generatedCases)('$root', ({ dir, root, javaClass, seeds }) => {
    const desc = normalizeDescriptorSet(parseDescriptorSet(buildTestDescriptorSet(dir)), root).root;
    const samples = samplePayloads(seeds);
    const input = samples.map(([p, limit]) => `${limit} ${formatHex(p)}`).join('\n') + '\n';
    const java = execFileSync('java', ['-cp', `${JAR}${path.delimiter}${path.join(work, 'classes')}`, 'ProtobufJavaGeneratedOracle', javaClass, '1000'], {
      input,
      maxBuffer: 1 << 26,
    })
      .toString()
      .trim()
      .split('\n');
    expect(java).toHaveLength(samples.length);
    samples.forEach(([p, limit], i) => {
      expect(decodeLikeJava(p, desc, limit), `payload ${formatHex(p)}, recursionLimit ${limit}`).toBe(java[i]);
    });
  });
});
