/**
 * `migration-job` over every Kryo fixture savepoint (fixtures/kryo-savepoints, real Flink 1.20 and 2.3): the
 * generated project names the right Flink line and versions, re-registers the Kryo configuration the snapshot
 * records (in order, Flink's DummyAvro registration left out), addresses the operator by uid (2.x) or uid hash
 * (1.x `_metadata` has no uid), declares each carried state with ProtobufTypeInformation, and names what it cannot
 * carry in its README. That the generated code compiles and runs is fixtures/migration-job/run.mjs's part; its
 * output is checked in tests/fixtures-golden/kryo-migrated-savepoints.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';

const ROOT = path.resolve('fixtures/kryo-savepoints');
const SCHEMA = path.join(ROOT, 'events.binpb');
const EVENT = 'dev.savepointinspector.fixtures.generated.EventMessages$Event';
const EVENT_SOURCE = 'dev.savepointinspector.fixtures.generated.EventMessages.Event';
const RULE = 'dev.savepointinspector.fixtures.generated.EventMessages$Rule';
const CHILL = 'com.twitter.chill.protobuf.ProtobufSerializer';
const JAVA = 'src/main/java/migration/kryo/KryoToProtobufMigration.java';

const work = mkdtempSync(path.join(tmpdir(), 'migration-job-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;

async function generate(savepoint: string, extra: string[] = []) {
  const out = path.join(work, `p${n++}`);
  let stdout = '';
  let stderr = '';
  const code = await runCli(['migration-job', savepoint, '--output', out, ...extra], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  const read = (f: string) => readFileSync(path.join(out, f), 'utf8');
  return { code, stdout, stderr, out, read };
}

const CASES = [
  { line: 'flink-1.20', case: 'hashmap/kryo-registered', config: [`register(kryo, "${EVENT}", "${CHILL}");`, `register(kryo, "${RULE}", null);`] },
  {
    line: 'flink-1.20',
    case: 'hashmap/kryo-default',
    config: [`register(kryo, "${EVENT}", null);`, `addDefault(kryo, "com.google.protobuf.Message", "${CHILL}");`],
  },
  { line: 'flink-1.20', case: 'rocksdb/kryo-registered', config: [`register(kryo, "${EVENT}", "${CHILL}");`] },
  { line: 'flink-2.3', case: 'hashmap/kryo-registered', config: [`register(kryo, "${EVENT}", "${CHILL}");`, `register(kryo, "${RULE}", null);`] },
  {
    line: 'flink-2.3',
    case: 'hashmap/kryo-default',
    config: [`register(kryo, "${EVENT}", null);`, `addDefault(kryo, "com.google.protobuf.Message", "${CHILL}");`],
  },
  { line: 'flink-2.3', case: 'rocksdb/kryo-registered', config: [`register(kryo, "${EVENT}", "${CHILL}");`] },
];

describe('migration-job over the Kryo fixtures', () => {
  for (const c of CASES) {
    it(`${c.line}/${c.case}: the project re-registers the saved Kryo configuration and writes the states with ProtobufTypeInformation`, async () => {
      const g = await generate(path.join(ROOT, c.line, c.case, 'savepoint'), ['--descriptors', SCHEMA]);
      expect(g.code, g.stderr).toBe(0);
      const pom = g.read('pom.xml');
      const java = g.read(JAVA);
      const readme = g.read('README.md');
      const flink1 = c.line === 'flink-1.20';

      // the Flink line and its versions
      expect(pom).toContain(`<flink.version>${flink1 ? '1.20.5' : '2.3.0'}</flink.version>`);
      expect(pom).toContain(`<flink.state-processor.version>${flink1 ? '1.20.0' : '2.3.0'}</flink.state-processor.version>`);
      expect(pom).toContain(`<chill-protobuf.version>${flink1 ? '0.7.6' : '0.10.0'}</chill-protobuf.version>`);
      expect(pom).toContain(
        flink1
          ? '<exclusion><groupId>com.esotericsoftware.kryo</groupId><artifactId>kryo</artifactId></exclusion>'
          : '<exclusion><groupId>com.esotericsoftware</groupId><artifactId>kryo-shaded</artifactId></exclusion>',
      );
      expect(java).toContain(
        flink1
          ? 'public void open(org.apache.flink.configuration.Configuration parameters)'
          : 'public void open(org.apache.flink.api.common.functions.OpenContext openContext)',
      );

      // the serializer's real coordinates by default
      expect(pom).toContain('<serializer.groupId>io.github.flink-gcp</serializer.groupId>');
      expect(pom).toContain('<serializer.artifactId>flink-datastream-protobuf</serializer.artifactId>');
      expect(pom).toContain(`<serializer.version>${flink1 ? '1.0.0-1.20' : '1.0.0'}</serializer.version>`);
      expect(readme).toContain(`**\`io.github.flink-gcp:flink-datastream-protobuf:${flink1 ? '1.0.0-1.20' : '1.0.0'}\`**`);

      // the old Kryo configuration, in the snapshot's order, without Flink's own registration
      const configure = java.slice(java.indexOf('static void configureOldKryo'), java.indexOf('static void register('));
      expect(
        configure
          .split('\n')
          .filter((l) => l.includes('register(kryo') || l.includes('addDefault(kryo'))
          .map((l) => l.trim()),
      ).toEqual(c.config);
      expect(java).not.toContain('DummyAvro');

      // the operator: by uid in 2.x, by uid hash in 1.x (its _metadata has no uid)
      const id = flink1 ? 'OperatorIdentifier.forUidHash("2c3360807567b390553b1d6bddbcfc9d")' : 'OperatorIdentifier.forUid("kryo-keyed")';
      expect(java).toContain(`OperatorIdentifier id = ${id};`);
      expect(java).toContain(`.withOperator(${id}, operator0(old))`);
      expect(java).toContain('.setMaxParallelism(16)');
      expect(java).toContain('old.readKeyedState(id, new Operator0Reader(), Types.INT, ROW_0)');

      // read with the old TypeInformation (Kryo), written with ProtobufTypeInformation
      const proto = `ProtobufTypeInformation.newBuilder(${EVENT_SOURCE}.class).build()`;
      const kryo = `TypeInformation.of(${EVENT_SOURCE}.class)`;
      for (const t of [kryo, proto]) {
        expect(java).toContain(`new ValueStateDescriptor<>("last-event", ${t})`);
        expect(java).toContain(`new MapStateDescriptor<>("events-by-name", Types.STRING, ${t})`);
        expect(java).toContain(`new ListStateDescriptor<${EVENT_SOURCE}>("event-history", ${t})`);
      }
      expect(java).toContain(`old.readListState(id, "processed-events", ${kryo})`);
      expect(java).toContain(`context.getOperatorStateStore().getListState(new ListStateDescriptor<${EVENT_SOURCE}>("processed-events", ${proto}))`);
      expect(java).not.toContain('event-holder');
      expect(java).not.toContain('any-message');

      // the schema: protoc from the descriptor set, byte for byte the given set
      expect(new Uint8Array(readFileSync(path.join(g.out, 'src/main/descriptors/events.binpb')))).toEqual(new Uint8Array(readFileSync(SCHEMA)));
      expect(pom).toContain('<arg value="--descriptor_set_in=${project.basedir}/src/main/descriptors/events.binpb"/>');
      expect(pom).toContain('<arg value="fixtures/events.proto"/>');
      expect(pom).toContain('<arg value="fixtures/common.proto"/>');

      // what it cannot carry, named in the README and on stdout
      expect(readme).toMatch(/\| .*2c3360807567b390553b1d6bddbcfc9d.* \| event-holder \| the message is not the whole value \(POJO EventHolder/);
      expect(readme).toMatch(/\| _timer_state\/processing_user-timers \| timers: the State Processor API cannot write timers/);
      expect(readme).toMatch(/\| \(whole operator\) \| none of its states is carried \(SourceReaderState\)/);
      if (c.case === 'hashmap/kryo-default')
        expect(readme).toMatch(/\| any-message \| declared as com\.google\.protobuf\.Message: Kryo wrote each value's class by name/);
      else expect(readme).not.toContain('any-message');
      expect(readme).toMatch(
        /\| [^|]+ \| last-event \| VALUE \(key Integer\) \| fixtures\.events\.Event \(`dev\.savepointinspector\.fixtures\.generated\.EventMessages\.Event`\) \| 16 \|/,
      );
      expect(g.stdout).toContain('event-holder: the message is not the whole value');
      // a run line whose serializer does not resolve says what to do, and how to check the result
      const coords =
        c.line === 'flink-1.20' ? 'io.github.flink-gcp:flink-datastream-protobuf:1.0.0-1.20' : 'io.github.flink-gcp:flink-datastream-protobuf:1.0.0';
      expect(g.stdout).toContain(
        `If Maven cannot resolve ${coords} (a repository it does not read, or a version not published there): add -Dserializer.version=<version>\n`,
      );
      expect(g.stdout).toContain('-Dserializer.repo=/absolute/folder for a folder laid out as a Maven\n');
      expect(g.stdout).toContain(
        'Then check the migrated savepoint against the new job: savepoint-inspector check <new savepoint> --job-jar <new job.jar> --target 1.x\n',
      );
      expect(readme).toContain('`savepoint-inspector check /path/to/new-savepoint --job-jar <new job.jar> --target 1.x`');
      // a descriptor set gives no POJO class, which Flink needs to restore the operator: the README says so
      const classes = readme.slice(readme.indexOf('**Classes of the old job.**'), readme.indexOf('The job runs in a local MiniCluster'));
      expect(classes).toContain('/ `event-holder`: POJO EventHolder');
      expect(classes).not.toContain('any-message');
      expect(classes).not.toContain('last-event');
    });
  }

  it('--job-jar: the project compiles against the jar (system scope), runs no protoc and copies no descriptor set', async () => {
    const jar = path.resolve('fixtures/job-jars/jars/thin-4.36.2.jar');
    const g = await generate(path.join(ROOT, 'flink-2.3/hashmap/kryo-registered/savepoint'), ['--job-jar', jar]);
    expect(g.code, g.stderr).toBe(0);
    const pom = g.read('pom.xml');
    expect(pom).toContain(`<job.jar>${jar}</job.jar>`);
    expect(pom).toContain('<systemPath>${job.jar}</systemPath>');
    expect(pom).toContain('<classpathScope>compile</classpathScope>');
    expect(pom).not.toContain('<artifactId>protoc</artifactId>');
    expect(pom).not.toContain('descriptor_set_in');
    expect(() => g.read('src/main/descriptors/events.binpb')).toThrow();
    expect(g.read('README.md')).not.toContain('**Classes of the old job.**');
    expect(g.read(JAVA)).toContain(`new ValueStateDescriptor<>("last-event", ProtobufTypeInformation.newBuilder(${EVENT_SOURCE}.class).build())`);
  });

  it('the plain-Kryo savepoint gives a project that carries nothing and says why (exit 1)', async () => {
    const g = await generate(path.join(ROOT, 'flink-1.20/hashmap/kryo-plain/savepoint'), ['--descriptors', SCHEMA]);
    expect(g.code).toBe(1);
    expect(g.stdout).toContain('Nothing carried');
    expect(g.read('README.md')).toMatch(
      /\| last-event \| plain Kryo \(FieldSerializer\) on dev\.savepointinspector\.fixtures\.generated\.EventMessages\$Event: its bytes are protobuf-java internals/,
    );
    expect(() => g.read(JAVA)).toThrow();
  });

  it('--serializer and --flink-line override the coordinates and the line; --operator selects', async () => {
    const g = await generate(path.join(ROOT, 'flink-2.3/hashmap/kryo-registered/savepoint'), [
      '--descriptors',
      SCHEMA,
      '--serializer',
      'org.example:my-protobuf:9.9',
      '--flink-line',
      '1.20',
      '--operator',
      'kryo-keyed',
    ]);
    expect(g.code, g.stderr).toBe(0);
    const pom = g.read('pom.xml');
    expect(pom).toContain('<serializer.groupId>org.example</serializer.groupId>');
    expect(pom).toContain('<serializer.version>9.9</serializer.version>');
    expect(pom).toContain('<flink.version>1.20.5</flink.version>');
    // the source operator was not selected: nothing is said about it
    expect(g.read('README.md')).not.toContain('SourceReaderState');
  });

  it('refuses a non-empty output folder, an unknown operator and a malformed --serializer (exit 2)', async () => {
    const full = mkdtempSync(path.join(work, 'full-'));
    writeFileSync(path.join(full, 'x'), 'x');
    const sp = path.join(ROOT, 'flink-2.3/hashmap/kryo-registered/savepoint');
    let stderr = '';
    expect(await runCli(['migration-job', sp, '--descriptors', SCHEMA, '--output', full], { stdout: () => {}, stderr: (t) => (stderr += t) })).toBe(2);
    expect(stderr).toContain('is not empty');
    const op = await generate(sp, ['--descriptors', SCHEMA, '--operator', 'nope']);
    expect(op.code).toBe(2);
    expect(op.stderr).toContain('--operator nope: no such operator uid or id in the savepoint');
    const ser = await generate(sp, ['--descriptors', SCHEMA, '--serializer', 'only:two']);
    expect(ser.code).toBe(2);
    expect(ser.stderr).toContain('--serializer expects groupId:artifactId:version, found only:two');
  });
});
