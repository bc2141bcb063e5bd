/**
 * The text templates of the generated migration project (`migration-job`): the Maven pom and the README. The Java
 * job is assembled in render-kryo-migration-java.ts. Platform-free: plain strings in, plain strings out.
 */

export type MigrationFlinkLine = '1.20' | '2.x';

export interface MigrationCoordinates {
  groupId: string;
  artifactId: string;
  version: string;
}

/** The real coordinates of flink-datastream-protobuf 1.0.0 on Maven Central (compatibility-rules.md §2). */
export function defaultSerializerCoordinates(line: MigrationFlinkLine): MigrationCoordinates {
  return { groupId: 'io.github.flink-gcp', artifactId: 'flink-datastream-protobuf', version: line === '1.20' ? '1.0.0-1.20' : '1.0.0' };
}

export interface MigrationVersions {
  flink: string;
  /** flink-state-processor-api: Maven Central has only 1.20.0 of the 1.20 line */
  stateProcessor: string;
  chillProtobuf: string;
  protobufJava: string;
}

export function defaultVersions(line: MigrationFlinkLine): MigrationVersions {
  return line === '1.20'
    ? { flink: '1.20.5', stateProcessor: '1.20.0', chillProtobuf: '0.7.6', protobufJava: '4.36.2' }
    : { flink: '2.3.0', stateProcessor: '2.3.0', chillProtobuf: '0.10.0', protobufJava: '4.36.2' };
}

export function xml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Flink's own Java 17 flags (env.java.opts.all of its default configuration). */
export const ADD_OPENS = [
  'java.lang',
  'java.lang.reflect',
  'java.lang.invoke',
  'java.math',
  'java.io',
  'java.net',
  'java.nio',
  'sun.nio.ch',
  'java.text',
  'java.time',
  'java.util',
  'java.util.concurrent',
  'java.util.concurrent.atomic',
  'java.util.concurrent.locks',
];

export interface PomInput {
  line: MigrationFlinkLine;
  versions: MigrationVersions;
  serializer: MigrationCoordinates;
  mainClass: string;
  /** descriptors: protoc generates the message classes from the set; job-jar: the job's jar is on the class path */
  schema: { kind: 'descriptors'; setPath: string; protoFiles: string[] } | { kind: 'job-jar'; jarPath: string };
}

export function renderPom(p: PomInput): string {
  const chillExclusions =
    p.line === '1.20'
      ? ['com.esotericsoftware.kryo:kryo', 'com.google.protobuf:protobuf-java']
      : ['com.esotericsoftware:kryo-shaded', 'com.esotericsoftware:kryo', 'com.google.protobuf:protobuf-java'];
  const exclusions = chillExclusions
    .map((c) => {
      const [g, a] = c.split(':');
      return `            <exclusion><groupId>${g}</groupId><artifactId>${a}</artifactId></exclusion>`;
    })
    .join('\n');
  const schemaDependency =
    p.schema.kind === 'job-jar'
      ? `
    <!-- the job's own classes (the generated Protobuf classes): its jar, as given to migration-job -->
    <dependency>
      <groupId>migration.local</groupId>
      <artifactId>job-classes</artifactId>
      <version>1</version>
      <scope>system</scope>
      <systemPath>\${job.jar}</systemPath>
    </dependency>`
      : '';
  const protocPlugins =
    p.schema.kind === 'descriptors'
      ? `
      <!-- protoc from Maven Central generates the message classes from the job's descriptor set
           (protoc option descriptor_set_in: the same java_package / java_outer_classname, so the same class names) -->
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-dependency-plugin</artifactId>
        <version>3.8.1</version>
        <executions>
          <execution>
            <id>fetch-protoc</id>
            <phase>initialize</phase>
            <goals><goal>copy</goal></goals>
            <configuration>
              <artifactItems>
                <artifactItem>
                  <groupId>com.google.protobuf</groupId>
                  <artifactId>protoc</artifactId>
                  <version>\${protobuf.version}</version>
                  <classifier>\${protoc.classifier}</classifier>
                  <type>exe</type>
                  <outputDirectory>\${project.build.directory}/protoc</outputDirectory>
                  <destFileName>protoc</destFileName>
                </artifactItem>
              </artifactItems>
            </configuration>
          </execution>
        </executions>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-antrun-plugin</artifactId>
        <version>3.1.0</version>
        <executions>
          <execution>
            <id>protoc-java</id>
            <phase>generate-sources</phase>
            <goals><goal>run</goal></goals>
            <configuration>
              <target>
                <chmod file="\${project.build.directory}/protoc/protoc" perm="755"/>
                <mkdir dir="\${project.build.directory}/generated-sources/protobuf"/>
                <exec executable="\${project.build.directory}/protoc/protoc" failonerror="true">
                  <arg value="--descriptor_set_in=\${project.basedir}/${xml(p.schema.setPath)}"/>
                  <arg value="--java_out=\${project.build.directory}/generated-sources/protobuf"/>
${p.schema.protoFiles.map((f) => `                  <arg value="${xml(f)}"/>`).join('\n')}
                </exec>
              </target>
            </configuration>
          </execution>
        </executions>
      </plugin>
      <plugin>
        <groupId>org.codehaus.mojo</groupId>
        <artifactId>build-helper-maven-plugin</artifactId>
        <version>3.6.0</version>
        <executions>
          <execution>
            <id>add-protobuf-sources</id>
            <phase>generate-sources</phase>
            <goals><goal>add-source</goal></goals>
            <configuration>
              <sources><source>\${project.build.directory}/generated-sources/protobuf</source></sources>
            </configuration>
          </execution>
        </executions>
      </plugin>`
      : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- Generated by savepoint-inspector migration-job: see README.md. -->
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>migration.local</groupId>
  <artifactId>kryo-protobuf-state-migration</artifactId>
  <version>1</version>
  <packaging>jar</packaging>

  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <!-- Flink ${p.line} line, as the savepoint's _metadata shows -->
    <flink.version>${p.versions.flink}</flink.version>
    <flink.state-processor.version>${p.versions.stateProcessor}</flink.state-processor.version>
    <chill-protobuf.version>${p.versions.chillProtobuf}</chill-protobuf.version>
    <protobuf.version>${p.versions.protobufJava}</protobuf.version>
    <protoc.classifier>linux-x86_64</protoc.classifier>
    <!-- the native serializer: flink-datastream-protobuf (ProtobufTypeInformation) -->
    <serializer.groupId>${xml(p.serializer.groupId)}</serializer.groupId>
    <serializer.artifactId>${xml(p.serializer.artifactId)}</serializer.artifactId>
    <serializer.version>${xml(p.serializer.version)}</serializer.version>${p.schema.kind === 'job-jar' ? `\n    <job.jar>${xml(p.schema.jarPath)}</job.jar>` : ''}
    <migration.from>\${project.basedir}/old-savepoint</migration.from>
    <migration.to>\${project.basedir}/new-savepoint</migration.to>
  </properties>

  <profiles>
    <!-- -Dserializer.repo=/path/to/folder: resolve the serializer from a folder laid out as a Maven repository as
         well (a build of flink-datastream-protobuf that is not on Maven Central; README "Serializer") -->
    <profile>
      <id>serializer-from-folder</id>
      <activation><property><name>serializer.repo</name></property></activation>
      <repositories>
        <repository>
          <id>migration-serializer-folder</id>
          <url>file://\${serializer.repo}</url>
          <snapshots><enabled>true</enabled></snapshots>
        </repository>
      </repositories>
    </profile>
  </profiles>

  <dependencies>
    <dependency>
      <groupId>org.apache.flink</groupId>
      <artifactId>flink-streaming-java</artifactId>
      <version>\${flink.version}</version>
    </dependency>
    <dependency>
      <groupId>org.apache.flink</groupId>
      <artifactId>flink-clients</artifactId>
      <version>\${flink.version}</version>
    </dependency>
    <dependency>
      <groupId>org.apache.flink</groupId>
      <artifactId>flink-state-processor-api</artifactId>
      <version>\${flink.state-processor.version}</version>
    </dependency>
    <!-- the old Kryo configuration: chill-protobuf's ProtobufSerializer on Flink's own Kryo -->
    <dependency>
      <groupId>com.twitter</groupId>
      <artifactId>chill-protobuf</artifactId>
      <version>\${chill-protobuf.version}</version>
      <exclusions>
${exclusions}
      </exclusions>
    </dependency>
    <dependency>
      <groupId>com.google.protobuf</groupId>
      <artifactId>protobuf-java</artifactId>
      <version>\${protobuf.version}</version>
    </dependency>
    <dependency>
      <groupId>\${serializer.groupId}</groupId>
      <artifactId>\${serializer.artifactId}</artifactId>
      <version>\${serializer.version}</version>
    </dependency>${schemaDependency}
    <dependency>
      <groupId>org.slf4j</groupId>
      <artifactId>slf4j-simple</artifactId>
      <version>1.7.36</version>
    </dependency>
  </dependencies>

  <build>
    <plugins>${protocPlugins}
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.13.0</version>
      </plugin>
      <!-- mvn compile exec:exec -Dmigration.from=<old savepoint> -Dmigration.to=<new savepoint> -->
      <plugin>
        <groupId>org.codehaus.mojo</groupId>
        <artifactId>exec-maven-plugin</artifactId>
        <version>3.5.0</version>
        <configuration>
          <executable>java</executable>
          <!-- compile scope: includes a system-scoped job jar -->
          <classpathScope>compile</classpathScope>
          <arguments>
            <argument>-Xmx768m</argument>
            <argument>-Dorg.slf4j.simpleLogger.defaultLogLevel=warn</argument>
${ADD_OPENS.map((o) => `            <argument>--add-opens=java.base/${o}=ALL-UNNAMED</argument>`).join('\n')}
            <argument>-classpath</argument>
            <classpath/>
            <argument>${xml(p.mainClass)}</argument>
            <argument>\${migration.from}</argument>
            <argument>\${migration.to}</argument>
          </arguments>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
`;
}

export interface ReadmeInput {
  savepointName: string;
  line: MigrationFlinkLine;
  metadataVersion: number;
  versions: MigrationVersions;
  serializer: MigrationCoordinates;
  mainClassFile: string;
  schema: { kind: 'descriptors'; setPath: string } | { kind: 'job-jar'; jarPath: string };
  kryoConfig: readonly string[];
  carried: readonly { operator: string; maxParallelism: number; key: string | null; states: readonly { name: string; kind: string; message: string }[] }[];
  notCarried: readonly { operator: string; state: string | null; why: string }[];
  /** states of the carried operators whose serializers need the job's own classes (Flink restores them too) */
  needClasses: readonly { operator: string; state: string; type: string }[];
}

export function renderReadme(r: ReadmeInput): string {
  const carried = r.carried.flatMap((o) =>
    o.states.map(
      (s) =>
        `| ${o.operator} | ${s.name} | ${s.kind}${o.key && !s.kind.startsWith('OPERATOR') ? ` (key ${o.key})` : ''} | ${s.message} | ${o.maxParallelism} |`,
    ),
  );
  const notCarried = r.notCarried.map((n) => `| ${n.operator} | ${n.state ?? '(whole operator)'} | ${n.why.replace(/\|/g, '\\|')} |`);
  return `# Migration of Protobuf state held by Kryo to flink-datastream-protobuf

Generated by \`savepoint-inspector migration-job\` from the savepoint \`${r.savepointName}\` (\`_metadata\` version
${r.metadataVersion}: the Flink ${r.line} line). A restore cannot switch a state from Kryo to the native serializer
in place (\`KRYO_PROTOBUF_NOT_RESTORABLE\`: Flink compares the saved \`KryoSerializerSnapshot\` with the new
serializer and rejects it), so this State Processor API job reads every state below with the **old Kryo
configuration** as the savepoint records it and writes a **new savepoint** whose states use
\`ProtobufTypeInformation\`. Restore the new job (declaring these states with \`ProtobufTypeInformation\`) from the
new savepoint.

## Run

\`\`\`sh
mvn -q compile exec:exec -Dmigration.from=/path/to/old-savepoint -Dmigration.to=/path/to/new-savepoint
\`\`\`

If Maven cannot resolve \`${r.serializer.groupId}:${r.serializer.artifactId}:${r.serializer.version}\`, add
\`-Dserializer.version=<version>\` for another release, or \`-Dserializer.repo=/absolute/folder\` for a folder laid
out as a Maven repository ("Serializer" below). Then check the new savepoint against the new job:
\`savepoint-inspector check /path/to/new-savepoint --job-jar <new job.jar> --target ${r.serializer.version.startsWith('0.') ? '0.x' : '1.x'}\`.

Java 17 and Maven; the first build downloads Flink ${r.versions.flink}, the State Processor API
${r.versions.stateProcessor}${r.line === '1.20' ? ' (the only 1.20 release of `flink-state-processor-api` on Maven Central)' : ''}, chill-protobuf
${r.versions.chillProtobuf} and protobuf-java ${r.versions.protobufJava}${r.schema.kind === 'descriptors' ? ` and protoc ${r.versions.protobufJava}, which generates the message classes from \`${r.schema.setPath}\` (the descriptor set given to migration-job; protoc keeps the \`java_package\` / \`java_outer_classname\` options, so the class names are the old job's)` : ` and uses the job's classes from \`${r.schema.jarPath}\` (\`-Djob.jar=…\` to change)`}.
${
  r.schema.kind === 'descriptors' && r.needClasses.length > 0
    ? `\n**Classes of the old job.** Flink's heap backend restores every state of an operator the job reads, so every class
their serializer snapshots name must be on the class path, and a descriptor set gives only the message classes.
${r.needClasses.map((n) => `- ${n.operator} / \`${n.state}\`: ${n.type}`).join('\n')}

Add the old job's jar (\`migration-job --job-jar\`, or a dependency in \`pom.xml\`), or the read fails with
\`ClassNotFoundException\`.
`
    : ''
}
The job runs in a local MiniCluster (BATCH mode) and writes the new savepoint with the HashMap state backend
(canonical format: any backend restores it). Set the versions in \`pom.xml\` (\`flink.version\`,
\`protobuf.version\`) to the new job's.

## Serializer

The new states are declared with \`ProtobufTypeInformation.newBuilder(<class>).build()\` (package
\`io.github.flink.gcp.protobuf\`, default settings: not deterministic, maxMessageSize 64 MiB, recursionLimit 100;
use the builder's \`deterministicSerialization\`, \`maxMessageSize\`, \`recursionLimit\` for the settings the new
job will declare, since a restore compares them). The pom depends on
**\`${r.serializer.groupId}:${r.serializer.artifactId}:${r.serializer.version}\`**${r.serializer.groupId === 'io.github.flink-gcp' && r.serializer.version.startsWith('1.0.0') ? ` (the Maven Central release for the Flink ${r.line} line)` : ''};
\`migration-job --serializer <groupId:artifactId:version>\` or \`-Dserializer.groupId/.artifactId/.version=…\`
changes it. To take it from a folder laid out as a Maven repository (a build that is not on Maven Central), add
\`-Dserializer.repo=/absolute/folder\` (profile \`serializer-from-folder\`).

## The old Kryo configuration

${r.kryoConfig.length > 0 ? r.kryoConfig.map((c) => `- \`${c}\``).join('\n') : '- (none)'}

These are the registrations and default serializers of the saved \`KryoSerializerSnapshot\` in their order, in
\`pipeline.serialization-config\` notation (a plain registration as the \`registerKryoType\` call it was: that option
has no form for it); the job registers them through \`SerializerConfigImpl\` (\`configureOldKryo\`). Flink's own
\`Serializers$DummyAvro…\` registration is left to Flink. Kryo registration ids follow this order, so keep it.

## States carried (\`${r.mainClassFile}\`)

| operator | state | kind | message (Java class) | max parallelism |
|---|---|---|---|---|
${carried.length > 0 ? carried.join('\n') : '| – | – | – | – | – |'}

Keyed state keeps its keys, map user keys and list order; operator list and union elements are written by the
operator's subtasks as the State Processor API distributes them (Flink redistributes them on restore anyway).
Each value is carried as its Protobuf bytes (\`toByteArray\` / \`parseFrom\`), so unknown fields stay.

## Not carried (not in the new savepoint)

| operator | state | why |
|---|---|---|
${notCarried.length > 0 ? notCarried.join('\n') : '| – | – | nothing: every state of the savepoint is carried |'}

Operators that are not in the new savepoint start empty when the new job restores from it (and a restore with
state the new job does not declare needs \`--allowNonRestoredState\`). To keep such operators' state as it is,
replace \`SavepointWriter.newSavepoint(…)\` by \`SavepointWriter.fromExistingSavepoint(env, old, backend)\` followed
by \`removeOperator(…)\` for each migrated operator; the new savepoint then refers to the old savepoint's files for
the operators it keeps, so keep the old savepoint folder.
`;
}
