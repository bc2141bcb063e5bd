/**
 * `check` as one platform-free operation, shared by the CLI and the app so both produce the same
 * report for the same inputs: inspect the savepoint, evaluate every Protobuf state against the new
 * descriptor set (evaluateSavepointStates), scan saved values for the value warnings (a ValueScanner:
 * here, or e.g. in worker threads), build the schema diff, and assemble the
 * report model.
 */
import { buildSchemaDiff, finishValueWarnings, type ValueWarning } from '../compat';
import { hasSourcesAndSinks, readSourcesAndSinks } from '../flink';
import { formatHex } from '../io';
import { computeSha256 } from '../protobuf';
import { buildReport } from './build-report';
import { kryoValuesNotRead, peerValuesNotRead } from './values-not-read-reasons';
import type { CheckSavepointInput, EvaluatedSavepoint } from './check-savepoint-types';
import { describeDescriptorSetSchema } from './describe-new-schema';
import { mapStatesToJar } from './map-states-to-jar';
import { evaluateSavepointStates } from './evaluate-savepoint-states';
import { IN_THREAD_VALUE_SCANNER } from './scan-values-by-operator';
import type { CompatibilityReport, ReportStateInput } from './report-types';

export type { CheckSavepointInput } from './check-savepoint-types';

export async function checkSavepoint(input: CheckSavepointInput): Promise<CompatibilityReport> {
  const evaluated = await evaluateSavepointStates(input);
  const scanner = input.valueScanner ?? IN_THREAD_VALUE_SCANNER;
  const tallies = input.scanValues === false || evaluated.protobuf.length === 0 ? [] : await scanner.scanValues(evaluated, input.signal);
  const states: ReportStateInput[] = [];
  for (const [i, { found, compatibility }] of evaluated.protobuf.entries()) {
    const result = tallies[i];
    const scanned = result !== undefined && 'tally' in result ? result : undefined;
    const warnings: ValueWarning[] = scanned ? finishValueWarnings([scanned.tally]) : [];
    states.push({
      kind: 'protobuf',
      operator: toReportOperator(found.operator),
      state: found.state.name,
      role: found.role,
      snapshotClass: found.snapshot.className,
      compatibility,
      warnings,
      ...(scanned ? { valuesScanned: scanned.valuesScanned } : {}),
      ...(result !== undefined && 'notRead' in result ? { valuesNotRead: result.notRead } : {}),
      // no new type to compare the values with (NEW_ROOT_MISSING): their value warnings were not checked
      ...(!compatibility.schema && input.scanValues !== false
        ? { valuesNotRead: `the new schema has no message ${compatibility.newRoot} to compare them with` }
        : {}),
      ...(compatibility.schema && input.schemaDiff !== false ? { diff: buildSchemaDiff(compatibility.schema) } : {}),
    });
  }
  for (const { found, compatibility } of evaluated.kryo) states.push(toUnscannedState(found, compatibility, kryoValuesNotRead(found)));
  for (const { found, compatibility } of evaluated.peer) states.push(toUnscannedState(found, compatibility, peerValuesNotRead(found)));
  for (const o of evaluated.other) {
    states.push({
      kind: 'other',
      operator: toReportOperator(o.operator),
      state: o.state.name,
      role: o.role,
      snapshotClass: o.snapshotClass,
      reason: o.reason,
      ...(o.uncheckedProtobuf ? { uncheckedProtobuf: true as const } : {}),
      ...(o.headerNotRead ? { headerNotRead: true as const } : {}),
    });
  }
  // the connector views inspect shows, from the evaluation's inspection and headers (reads only the connector states'
  // elements); not with --no-values, which reads the headers only (as inspect --headers-only has no views)
  const signal = input.signal ? { signal: input.signal } : {};
  const sourcesAndSinks =
    input.scanValues === false
      ? undefined
      : await readSourcesAndSinks(evaluated.opened, evaluated.session.registry, (await evaluated.session.inspect(signal)).operators, {
          ...signal,
          headers: evaluated.session.headers,
        });
  // the bytes the evaluation's one read of `_metadata` gave (no second read for the digest)
  const metadataBytes = evaluated.opened.metadataBytes;
  const report = buildReport({
    tool: input.tool,
    inputs: [
      { role: 'savepoint', name: input.savepointName ?? input.files.name, size: metadataBytes.length, sha256: formatHex(computeSha256(metadataBytes)) },
      ...(input.jobJar
        ? input.jobJar.files
        : [
            {
              role: 'descriptors' as const,
              name: input.descriptorSet.name,
              size: input.descriptorSet.bytes.length,
              sha256: formatHex(computeSha256(input.descriptorSet.bytes)),
            },
          ]),
    ],
    target: evaluated.target,
    newSettings: evaluated.newSettings,
    states,
    newSchema: input.jobJar ? input.jobJar.schema : describeDescriptorSetSchema(),
    ...(sourcesAndSinks && hasSourcesAndSinks(sourcesAndSinks) ? { sourcesAndSinks } : {}),
    ...(input.generatedAt ? { generatedAt: input.generatedAt } : {}),
  });
  const literals = input.jobJar?.stringLiterals;
  if (literals === undefined || report.newSchema?.jobJar === undefined) return report;
  // the mapping needs the report's states (every operator and state of the savepoint, sorted)
  return { ...report, newSchema: { ...report.newSchema, jobJar: { ...report.newSchema.jobJar, stateMapping: mapStatesToJar(report.states, literals) } } };
}

/** A Protobuf state whose values check does not scan (Kryo, flink-protobuf-serde): its verdict, no warnings, and why its values were not read. */
function toUnscannedState(
  found: EvaluatedSavepoint['kryo'][number]['found'] | EvaluatedSavepoint['peer'][number]['found'],
  compatibility: EvaluatedSavepoint['kryo'][number]['compatibility'],
  valuesNotRead: string,
): ReportStateInput {
  return {
    kind: 'protobuf',
    operator: toReportOperator(found.operator),
    state: found.state.name,
    role: found.role,
    snapshotClass: found.snapshot.className,
    compatibility,
    warnings: [],
    valuesNotRead,
  };
}

/** A state's operator as the report names it: id, and uid and name when the savepoint has them. */
function toReportOperator(op: { id: string; uid?: string | undefined; name?: string | undefined }): ReportStateInput['operator'] {
  return { id: op.id, ...(op.uid ? { uid: op.uid } : {}), ...(op.name ? { name: op.name } : {}) };
}
