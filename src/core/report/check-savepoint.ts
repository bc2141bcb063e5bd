/**
 * `check` as one platform-free operation, shared by the CLI and the app so both produce the same
 * report for the same inputs: inspect the savepoint, evaluate every Protobuf state against the new
 * descriptor set (target line, settings, root per state), scan saved values for the value
 * warnings, build the schema diff, and assemble the report model.
 */
import { fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema, type FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import {
  buildSchemaDiff,
  DEFAULT_SETTINGS,
  evaluateStateCompatibility,
  createValueWarningCollector,
  findProtobufStates,
  indexDeclarations,
  loadDescriptorSet,
  registerValueScanningReaders,
  type UnkeyedScannedValue,
  scanProtobufStateValues,
  type LibraryLine,
  type SerializerSettings,
  type TypeKind,
  type ValueWarning,
} from '../compat';
import { createSnapshotRegistry, inspectSavepoint, openSavepoint, type CancelSignal } from '../flink';
import { DecodeError, isDecodeError, readAll, type SavepointFiles } from '../io';
import { computeSha256, formatHex, PROTOBUF_SNAPSHOT_CLASS, registerProtobufSnapshotReaders } from '../protobuf';
import { buildReport } from './build-report';
import type { CompatibilityReport, ReportStateInput } from './report-types';

export interface CheckSavepointInput {
  files: SavepointFiles;
  descriptorSet: { name: string; bytes: Uint8Array };
  /** the savepoint's name in the report (default files.name); the CLI and the app pass the base name so their reports match */
  savepointName?: string;
  tool: { name: string; version: string };
  /** default 1.x (the newest line this project supports) */
  target?: LibraryLine;
  newSettings?: Partial<SerializerSettings>;
  /** the new root message for every Protobuf state (default: each state's saved root) */
  newRoot?: string;
  /** per state `<operator id or uid>/<state name>` → new root; wins over newRoot */
  newRoots?: Readonly<Record<string, string>>;
  /** the new Java class (default: derived from the new descriptor's file options) */
  newJavaClass?: string;
  /** default: the saved kind */
  newKind?: TypeKind;
  /** scan saved values for the value warnings (default true) */
  scanValues?: boolean;
  generatedAt?: string;
  signal?: CancelSignal;
}

/** The 0.1.0 snapshot class is the only one observed so far; it is the 0.x line. */
const SNAPSHOT_LINES: Readonly<Record<string, LibraryLine>> = { [PROTOBUF_SNAPSHOT_CLASS]: '0.x' };

export async function checkSavepoint(input: CheckSavepointInput): Promise<CompatibilityReport> {
  const loaded = loadDescriptorSet(input.descriptorSet.bytes, input.descriptorSet.name);
  const newIndex = indexDeclarations(loaded.set);
  const target = input.target ?? '1.x';
  const newSettings: Required<SerializerSettings> = { ...DEFAULT_SETTINGS, ...input.newSettings };
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  const inspection = await inspectSavepoint(input.files, registry, input.signal ? { signal: input.signal } : {});
  const { protobuf, other } = findProtobufStates(inspection);

  // the value warnings read values with the structural scan (the full decoder only where the scan cannot mirror it exactly)
  const pending: UnkeyedScannedValue[] = [];
  const scanRegistry = createSnapshotRegistry();
  registerValueScanningReaders(scanRegistry, (v) => pending.push(v));
  const opened = input.scanValues === false || protobuf.length === 0 ? undefined : await openSavepoint(input.files);

  // states usually share one saved schema: parse it once per descriptor SHA-256 (the compat engine also remembers its work per set object)
  const savedSets = new Map<string, FileDescriptorSet>();
  const states: ReportStateInput[] = [];
  for (const found of protobuf) {
    const stateKey = `${found.operator.id}/${found.state.name}`;
    const uidKey = found.operator.uid ? `${found.operator.uid}/${found.state.name}` : undefined;
    const newRoot = input.newRoots?.[stateKey] ?? (uidKey ? input.newRoots?.[uidKey] : undefined) ?? input.newRoot ?? found.content.rootFullName;
    if (newIndex.byName.get(newRoot)?.kind !== 'message') {
      throw new DecodeError({
        code: 'invalid-value',
        detail: `The new descriptor set has no message ${newRoot} (the new type of state ${found.state.name} of operator ${found.operator.uid ?? found.operator.id}); pick one with --root`,
        file: input.descriptorSet.name,
        path: ['descriptor set'],
      });
    }
    const savedKind: TypeKind = 'generated';
    const compatibility = evaluateStateCompatibility(
      {
        savedSet: parseSavedSet(savedSets, found.content.descriptorSha256, found.content.descriptorBytes),
        savedRoot: found.content.rootFullName,
        savedJavaClass: found.content.javaClass,
        savedKind,
        savedSettings: {
          deterministicSerialization: found.content.settings.deterministic,
          maxMessageSize: found.content.settings.maxMessageSize,
          recursionLimit: found.content.settings.recursionLimit,
        },
        snapshotClass: found.snapshot.className,
        savedLine: SNAPSHOT_LINES[found.snapshot.className] ?? '1.x',
      },
      {
        newSet: loaded.set,
        newRoot,
        newKind: input.newKind ?? savedKind,
        ...(input.newJavaClass ? { newJavaClass: input.newJavaClass } : {}),
        newSettings,
        target,
      },
    );
    let warnings: ValueWarning[] = [];
    let valuesScanned: number | undefined;
    if (opened && compatibility.schema) {
      try {
        // values are counted into the warnings as they are read, never kept: memory stays bounded by the warnings' example keys
        const collector = createValueWarningCollector(compatibility.schema, newSettings);
        const scan = await scanProtobufStateValues(input.files, scanRegistry, pending, {
          operatorId: found.operator.id,
          state: found.state.name,
          opened,
          onValue: collector.add,
          ...(input.signal ? { signal: input.signal } : {}),
        });
        warnings = collector.finish();
        valuesScanned = scan.scannedValues;
      } catch (e) {
        // a cancelled scan is not "values not readable": a report without its warnings must never look complete
        if (!isDecodeError(e) || e.code === 'cancelled') throw e;
        // values not readable (e.g. RocksDB native): the report says they were not scanned
      }
    }
    states.push({
      kind: 'protobuf',
      operator: { id: found.operator.id, ...(found.operator.uid ? { uid: found.operator.uid } : {}), ...(found.operator.name ? { name: found.operator.name } : {}) },
      state: found.state.name,
      role: found.role,
      snapshotClass: found.snapshot.className,
      compatibility,
      warnings,
      ...(valuesScanned !== undefined ? { valuesScanned } : {}),
      ...(compatibility.schema ? { diff: buildSchemaDiff(compatibility.schema) } : {}),
    });
  }
  for (const o of other) {
    states.push({
      kind: 'other',
      operator: { id: o.operator.id, ...(o.operator.uid ? { uid: o.operator.uid } : {}), ...(o.operator.name ? { name: o.operator.name } : {}) },
      state: o.state.name,
      role: o.role,
      snapshotClass: o.snapshotClass,
      reason: o.reason,
    });
  }
  const metadataBytes = await readAll(input.files.metadata);
  return buildReport({
    tool: input.tool,
    inputs: [
      { role: 'savepoint', name: input.savepointName ?? input.files.name, size: metadataBytes.length, sha256: formatHex(computeSha256(metadataBytes)) },
      { role: 'descriptors', name: input.descriptorSet.name, size: input.descriptorSet.bytes.length, sha256: formatHex(computeSha256(input.descriptorSet.bytes)) },
    ],
    target,
    newSettings,
    states,
    ...(input.generatedAt ? { generatedAt: input.generatedAt } : {}),
  });
}

function parseSavedSet(sets: Map<string, FileDescriptorSet>, sha256: string, bytes: Uint8Array): FileDescriptorSet {
  let set = sets.get(sha256);
  if (set === undefined) sets.set(sha256, (set = fromBinary(FileDescriptorSetSchema, bytes)));
  return set;
}
