/**
 * The full decode pipelines the mutation suite drives, through public core APIs only:
 * - savepoint: open the input (folder files or one archive) → inspect (headers) → every state's
 *   entries with Protobuf decoding registered → for each Protobuf snapshot the compatibility
 *   evaluator against the saved descriptor set (and an optional fixture descriptor set);
 * - snapshot: the nested serializer-snapshot reader with the Protobuf reader registered;
 * - descriptor set: loading, the evaluator against its unmutated partner, and the serializer's
 *   normalization (the set embedded in a snapshot and read back).
 * DecodeErrors inside one state are collected (the session goes on, as in the app); any other
 * exception escapes and fails the case.
 */
import { evaluateStateCompatibility, indexDeclarations, loadDescriptorSet } from '../../src/core/compat';
import { type LoadedDescriptorSet } from '../../src/core/compat/descriptors/load-descriptor-set';
import { createSnapshotRegistry, inspectSavepoint, openSavepoint, type SerializerSnapshot, type SnapshotRegistry } from '../../src/core/flink';
import { readNestedSerializerSnapshot } from '../../src/core/flink/snapshots/read-serializer-snapshot';
import { readStateEntries } from '../helpers/read-state-entries';
import { ByteReader, ByteWriter, bytesSource, isDecodeError, openSavepointInput, DecodeError } from '../../src/core/io';
import { type SavepointInput } from '../../src/core/io/open-savepoint-input';
import { DEFAULT_PROTOBUF_SETTINGS, getProtobufSnapshotContent, registerProtobufSnapshotReaders, writeProtobufSnapshotParts } from '../../src/core/protobuf';

/** A DecodeError as the user sees it: thrown, or recorded as JSON in an inspection's `errors`. */
export interface ReportedError {
  code: string;
  file?: string | undefined;
  offset?: number | undefined;
  detail: string;
  message: string;
  stack?: string | undefined;
}

export interface PipelineOutcome {
  /** DecodeErrors met along the way (thrown at the top, collected per state, or listed by the inspection) */
  errors: ReportedError[];
  /** entries, snapshots or evaluations that came out */
  produced: number;
}

export interface NamedBytes {
  path: string;
  bytes: Uint8Array;
}

export type SavepointCaseInput = { kind: 'folder'; name: string; files: readonly NamedBytes[] } | { kind: 'archive'; file: NamedBytes };

function createRegistry(): SnapshotRegistry {
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  return registry;
}

/** Runs fn; a DecodeError is recorded, anything else rethrown. */
async function collecting(outcome: PipelineOutcome, fn: () => Promise<void> | void): Promise<void> {
  try {
    await fn();
  } catch (e) {
    if (!isDecodeError(e)) throw e;
    outcome.errors.push(toReported(e));
  }
}

function toReported(e: DecodeError): ReportedError {
  return { code: e.code, file: e.file, offset: e.offset, detail: e.detail, message: e.message, stack: e.stack };
}

function toSavepointInput(input: SavepointCaseInput): SavepointInput {
  if (input.kind === 'archive') return { kind: 'source', source: bytesSource(input.file.path, input.file.bytes) };
  return { kind: 'files', name: input.name, files: input.files.map((f) => ({ path: f.path, source: bytesSource(f.path, f.bytes) })) };
}

function walkSnapshots(s: SerializerSnapshot | undefined, fn: (s: SerializerSnapshot) => void, depth = 0): void {
  if (!s || depth > 64) return;
  fn(s);
  for (const n of s.nested) walkSnapshots(n, fn, depth + 1);
}

export async function runSavepointPipeline(input: SavepointCaseInput, extraSchema?: LoadedDescriptorSet): Promise<PipelineOutcome> {
  const outcome: PipelineOutcome = { errors: [], produced: 0 };
  await collecting(outcome, async () => {
    const files = await openSavepointInput(toSavepointInput(input));
    const registry = createRegistry();
    const inspection = await inspectSavepoint(await openSavepoint(files), registry);
    outcome.errors.push(...inspection.errors);
    const opened = await openSavepoint(files);
    for (const op of inspection.operators) {
      for (const state of op.states) {
        // as the app: keyed states marked unreadable (a RocksDB native handle without meta data) are not read
        const nativeKeyed = op.keyedFormat === 'rocksdb-native' && state.scope === 'keyed' && state.status === 'unreadable';
        if (!nativeKeyed)
          await collecting(outcome, async () => {
            for await (const entry of readStateEntries(files, registry, { operatorId: op.id, state: state.name, opened })) {
              JSON.stringify(entry, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
              outcome.produced++;
            }
          });
        for (const root of [state.keySerializer, state.namespaceSerializer, state.valueSerializer]) {
          walkSnapshots(root, (s) => {
            const content = getProtobufSnapshotContent(s);
            if (!content) return;
            const saved = loadDescriptorSet(content.descriptorBytes, `${op.id}/${state.name} snapshot descriptors`);
            const savedSettings = {
              deterministicSerialization: content.settings.deterministic,
              maxMessageSize: content.settings.maxMessageSize,
              recursionLimit: content.settings.recursionLimit,
            };
            for (const next of extraSchema ? [saved, extraSchema] : [saved]) {
              evaluateStateCompatibility(
                {
                  savedSet: saved.set,
                  savedRoot: content.rootFullName,
                  savedJavaClass: content.javaClass,
                  savedKind: 'generated',
                  savedSettings,
                  snapshotClass: s.className,
                  savedLine: '0.x',
                },
                { newSet: next.set, newRoot: content.rootFullName, newKind: 'generated', newSettings: savedSettings, target: '0.x' },
              );
              outcome.produced++;
            }
          });
        }
      }
    }
  });
  return outcome;
}

/** One serializer snapshot in the nested form (utf class name, i32 version, content). */
export async function runSnapshotPipeline(file: NamedBytes): Promise<PipelineOutcome> {
  const outcome: PipelineOutcome = { errors: [], produced: 0 };
  await collecting(outcome, () => {
    const snapshot = readNestedSerializerSnapshot(new ByteReader(file.bytes, { file: file.path }), createRegistry());
    walkSnapshots(snapshot, () => outcome.produced++);
  });
  return outcome;
}

export interface DescriptorPairInput {
  /** the mutated side */
  file: NamedBytes;
  root: string;
  /** the unmutated partner and its root */
  partner: NamedBytes;
  partnerRoot: string;
}

/** Loads, normalizes (as the serializer would) and evaluates a descriptor set against its partner. */
export async function runDescriptorSetPipeline(input: DescriptorPairInput): Promise<PipelineOutcome> {
  const outcome: PipelineOutcome = { errors: [], produced: 0 };
  await collecting(outcome, () => {
    const loaded = loadDescriptorSet(input.file.bytes, input.file.path);
    outcome.produced++;
    const partner = loadDescriptorSet(input.partner.bytes, input.partner.path);
    // this pipeline treats a set without the root as an input error named by file (check gives that state NEW_ROOT_MISSING instead)
    if (indexDeclarations(loaded.set).byName.get(input.root)?.kind !== 'message') {
      throw new DecodeError({
        code: 'invalid-value',
        detail: `The new descriptor set has no message ${input.root}`,
        file: input.file.path,
        offset: 0,
        path: ['descriptor set'],
      });
    }
    const settings = { deterministicSerialization: false, maxMessageSize: 67_108_864, recursionLimit: 100 };
    evaluateStateCompatibility(
      { savedSet: partner.set, savedRoot: input.partnerRoot, savedKind: 'generated', savedSettings: settings, snapshotClass: 'saved', savedLine: '1.x' },
      { newSet: loaded.set, newRoot: input.root, newKind: 'generated', newSettings: settings, target: '1.x' },
    );
    outcome.produced++;
  });
  // the writer refuses empty descriptor bytes before anything is read; nothing to normalize then
  if (input.file.bytes.length > 0)
    await collecting(outcome, () => {
      // the serializer's normalization runs where saved descriptor bytes are read: inside a snapshot
      const w = new ByteWriter();
      writeProtobufSnapshotParts(w, 'robustness.Mutated', input.root, DEFAULT_PROTOBUF_SETTINGS, input.file.bytes);
      readNestedSerializerSnapshot(new ByteReader(w.finish(), { file: input.file.path }), createRegistry());
      outcome.produced++;
    });
  return outcome;
}
