/**
 * Where the new schema came from, for the report: a job jar (what its generated classes and
 * bundled artifacts tell) or a descriptor set (and the differences a descriptor set cannot show),
 * and the lines every text format prints for it.
 */
import type { JobJarSchema } from '../jar';
import type { JobJarReport, NewSchemaReport, SavedSchemaReport, StateMappingReport } from './report-types';

/** Java classes listed per jar in the human formats (the JSON report lists every one) */
const MAX_JAVA_CLASS_LINES = 20;

/** What a protoc/buf descriptor set cannot show, said once in every report made from one. */
export const DESCRIPTOR_SET_BLIND_SPOT =
  'an explicit json_name equal to the derived one: protoc and buf write a json_name on every field, so adding or removing such a json_name ' +
  "(a rejection by the 0.x exact rule and by FIELD_JSON_NAME_CHANGED) is not visible in a descriptor set; pass the new job's jar (--job-jar) to compare the exact descriptors its generated classes embed";

export function describeDescriptorSetSchema(): NewSchemaReport {
  return { source: 'descriptor-set', cannotSee: [DESCRIPTOR_SET_BLIND_SPOT] };
}

export function describeJobJarSchema(schema: JobJarSchema, options: { targetFromJar: boolean; stateMapping?: StateMappingReport }): NewSchemaReport {
  const jobJar: JobJarReport = {
    name: schema.jar,
    with: [...schema.withJars],
    gencodeVersions: [...schema.gencodeVersions],
    runtimePackages: schema.runtimePackages.map((r) => ({ ...r })),
    ...(schema.library ? { library: { ...schema.library } } : {}),
    targetFromJar: options.targetFromJar,
    ...(schema.flink ? { flink: { ...schema.flink } } : {}),
    artifacts: schema.artifacts.map((a) => ({ groupId: a.groupId, artifactId: a.artifactId, version: a.version })),
    files: schema.files.map((f) => ({ name: f.name, outerClass: f.outerClass, jar: f.jar })),
    messages: schema.messages.map((m) => ({ fullName: m.fullName, javaClass: m.javaClass })),
    ...(options.stateMapping ? { stateMapping: options.stateMapping } : {}),
    ...(schema.conflicts ? { conflicts: schema.conflicts.map((c) => ({ file: c.file, kept: { ...c.kept }, other: { ...c.other } })) } : {}),
    warnings: [...schema.warnings],
  };
  return { source: 'job-jar', cannotSee: [], jobJar };
}

/**
 * The lines the text, Markdown and HTML reports print about the schemas' sources (plain text, one fact
 * each): the old application's jar first when `compare` was given one as `--against`, then the new schema.
 */
export function listNewSchemaLines(schema: NewSchemaReport, saved?: SavedSchemaReport, options: { javaClasses?: boolean } = {}): string[] {
  const out: string[] = [];
  // javaClasses false: the caller shows the new jar's message → Java class pairs as a table of its own (the app)
  const javaClasses = options.javaClasses !== false;
  if (saved !== undefined) listJobJarLines(saved.jobJar, 'old', out);
  for (const blind of schema.cannotSee) out.push(`new schema from a descriptor set, which cannot show ${blind}`);
  const jar = schema.jobJar;
  if (jar === undefined) return out;
  listJobJarLines(jar, 'new', out, javaClasses);
  const mapping = jar.stateMapping;
  if (mapping) {
    out.push(`state mapping (heuristic: ${mapping.method})`);
    if (mapping.notPossible !== undefined) {
      out.push(`  ${mapping.notPossible}`);
      return out;
    }
    for (const o of mapping.operatorsNotFound)
      out.push(`  operator ${o.uid ?? o.operator} not found in the jar: its state needs --allowNonRestoredState, and Flink drops it`);
    for (const s of mapping.statesNotFound)
      out.push(`  state ${s.uid ?? s.operator}/${s.state} not found in the jar: it needs --allowNonRestoredState, and Flink drops it`);
    if (mapping.operatorsNotFound.length === 0 && mapping.statesNotFound.length === 0) out.push('  every saved operator uid and state name occurs in the jar');
    for (const uid of mapping.newUidsWithoutState) out.push(`  uid ${uid} of the new job has no state in the savepoint: that operator starts empty`);
  }
  return out;
}

/** One jar's facts; the old side's lines say `old` and do not claim the target. */
function listJobJarLines(jar: JobJarReport, side: 'old' | 'new', out: string[], javaClasses = true): void {
  const of = side === 'old' ? 'old jar ' : '';
  out.push(
    `${side} schema from the job jar ${jar.name}${jar.with.length > 0 ? ` with ${jar.with.join(', ')}` : ''}: ${jar.files.length} embedded .proto file(s), exact as the generated classes embed them`,
  );
  out.push(
    `${of}protobuf-java gencode: ${jar.gencodeVersions.join(', ')}; runtime: ${jar.runtimePackages.map((r) => `${r.name}${r.relocated ? ' (relocated)' : ''}`).join(', ')}`,
  );
  out.push(
    jar.library
      ? `${of}flink-datastream-protobuf: ${jar.library.line}${jar.library.version ? ` ${jar.library.version}` : ''} (${jar.library.evidence})${jar.targetFromJar ? '; the target line is taken from it' : ''}`
      : side === 'old'
        ? 'old jar flink-datastream-protobuf: not bundled'
        : "flink-datastream-protobuf: not bundled (the cluster must provide it; the target line is --target's)",
  );
  out.push(jar.flink ? `${of}Flink bundled: ${jar.flink.version ?? 'version unknown'} (${jar.flink.evidence})` : `${of}Flink bundled: no`);
  for (const a of jar.artifacts) out.push(`${of}bundled artifact ${a.groupId}:${a.artifactId}:${a.version}`);
  const shown = jar.messages.slice(0, MAX_JAVA_CLASS_LINES);
  const more = jar.messages.length - shown.length;
  if (javaClasses && shown.length > 0) {
    out.push(
      `${of}Java classes: ${shown.map((m) => `${m.fullName} → ${m.javaClass}`).join(', ')}${more > 0 ? `, and ${more} more (the JSON report lists all)` : ''}`,
    );
  }
  for (const w of jar.warnings) out.push(`${side === 'old' ? 'old ' : ''}job jar warning: ${w}`);
}
