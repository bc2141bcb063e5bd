/**
 * The header-only half of `check`: load the new descriptor set, inspect the savepoint (`_metadata`
 * and the state headers), and evaluate every Protobuf state against the new set (target line,
 * settings, root per state; a state whose root the new set lacks gets its own NEW_ROOT_MISSING verdict,
 * the others theirs). Deterministic in its input, so a worker thread that runs it again
 * finds the same states in the same order.
 */
import { fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema, type FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import {
  addJobJarConflictFindings,
  createSavepointRegistry,
  DEFAULT_SETTINGS,
  evaluateKryoProtobufState,
  evaluatePeerSerdeState,
  evaluateStateCompatibility,
  findProtobufStates,
  loadDescriptorSet,
  readSavedSettings,
  type InferredEvaluation,
  type LibraryLine,
  type SerializerSettings,
  type TypeKind,
} from '../compat';
import { createSavepointSession, getInferredSnapshotNote, openSavepointSession, type SerializerSnapshot } from '../flink';
import { PROTOBUF_SNAPSHOT_CLASS } from '../protobuf';
import type { CheckSavepointInput, EvaluatedProtobufState, EvaluatedSavepoint } from './check-savepoint-types';

/** The 0.1.0 snapshot class is the only one observed so far; it is the 0.x line. */
const SNAPSHOT_LINES: Readonly<Record<string, LibraryLine>> = { [PROTOBUF_SNAPSHOT_CLASS]: '0.x' };
/** the library's package: a snapshot class of it that the 0.x builds never wrote is taken as the 1.0.0 line */
const LIBRARY_PACKAGE = 'io.github.flink.gcp.protobuf.';

/** For a snapshot read by structure: what the verdict rests on and what it does not cover. */
function describeInferredEvaluation(snapshot: SerializerSnapshot, javaClass: string | undefined): InferredEvaluation | undefined {
  const note = getInferredSnapshotNote(snapshot);
  if (note === undefined) return undefined;
  const line = snapshot.className.startsWith(LIBRARY_PACKAGE)
    ? `the library line: ${snapshot.className} is in flink-datastream-protobuf's package and is not the 0.x class, so it is taken as the 1.x line (not read from the bytes)`
    : `the library line: ${snapshot.className} is not flink-datastream-protobuf's; the 1.x line's directional rules are applied as if it were (not read from the bytes)`;
  return {
    by: note.by,
    read: note.read.map((r) => ({ ...r })),
    notRead: [...note.notRead],
    notChecked: [
      'the limit and settings rules (MAX_MESSAGE_SIZE_*, RECURSION_LIMIT_*, DETERMINISTIC_SERIALIZATION_CHANGED, LARGE_PAYLOAD_ALIASING_CHANGED): the saved settings were not located',
      line,
      ...(javaClass ? [] : ['the Java class: none was found, so the state is taken as a DynamicMessage one (type kind dynamic)']),
      'whether the serializer of that class accepts the new schema at all: its compatibility code was not seen, only the directional rules on the schema found',
    ],
  };
}

export async function evaluateSavepointStates(input: CheckSavepointInput): Promise<EvaluatedSavepoint> {
  const loaded = loadDescriptorSet(input.descriptorSet.bytes, input.descriptorSet.name);
  const target = input.target ?? '1.x';
  const newSettings: Required<SerializerSettings> = { ...DEFAULT_SETTINGS, ...input.newSettings };
  const kryoSchema = { name: input.descriptorSet.name, bytes: input.descriptorSet.bytes, set: loaded.set };
  // opened once (after the new set loaded, as before), in one session: the value scan reads with its registry and the headers the inspection read
  const registry = createSavepointRegistry({ schema: kryoSchema });
  const session = input.opened ? createSavepointSession(input.opened, registry) : await openSavepointSession(input.files, registry);
  const opened = session.opened;
  const { protobuf, kryo, peer, other } = findProtobufStates(await session.inspect(input.signal ? { signal: input.signal } : {}));

  // states usually share one saved schema: parse it once per descriptor SHA-256 (the compat engine also remembers its work per set object)
  const savedSets = new Map<string, FileDescriptorSet>();
  const conflicts = input.jobJar?.schema.jobJar?.conflicts ?? [];
  const evaluated: EvaluatedProtobufState[] = [];
  for (const found of protobuf) {
    const stateKey = `${found.operator.id}/${found.state.name}`;
    const uidKey = found.operator.uid ? `${found.operator.uid}/${found.state.name}` : undefined;
    const newRoot = input.newRoots?.[stateKey] ?? (uidKey ? input.newRoots?.[uidKey] : undefined) ?? input.newRoot ?? found.content.rootFullName;
    // a snapshot read by structure: its Java class only when one was found (none: a DynamicMessage state), its settings never
    const inferredJavaClass = found.snapshot.details?.['javaClass'];
    const javaClass = getInferredSnapshotNote(found.snapshot)
      ? typeof inferredJavaClass === 'string'
        ? inferredJavaClass
        : undefined
      : found.content.javaClass;
    const inferred = describeInferredEvaluation(found.snapshot, javaClass);
    const savedKind: TypeKind = javaClass === undefined ? 'dynamic' : 'generated';
    const compatibility = evaluateStateCompatibility(
      {
        savedSet: parseSavedSet(savedSets, found.content.descriptorSha256, found.content.descriptorBytes),
        savedRoot: found.content.rootFullName,
        ...(javaClass ? { savedJavaClass: javaClass } : {}),
        savedKind,
        ...(inferred ? { inferred } : { savedSettings: readSavedSettings(found.content.settings) }),
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
        ...(input.jobJar ? { keepJsonNames: true } : {}),
      },
    );
    // a file the root reaches that the job jar embeds in two versions: the state cannot pass (JOB_JAR_DESCRIPTOR_CONFLICT)
    evaluated.push({ found, compatibility: addJobJarConflictFindings(compatibility, loaded.set, conflicts) });
  }
  // Protobuf held by Kryo: not restorable with the native serializer whatever the new schema says
  const kryoStates = kryo.map((found) => {
    const stateKey = `${found.operator.id}/${found.state.name}`;
    const uidKey = found.operator.uid ? `${found.operator.uid}/${found.state.name}` : undefined;
    const newRoot = input.newRoots?.[stateKey] ?? (uidKey ? input.newRoots?.[uidKey] : undefined) ?? input.newRoot;
    return { found, compatibility: evaluateKryoProtobufState(found.kryo.typeClass, found.recognition, target, newRoot) };
  });
  // the peer serializer flink-protobuf-serde: not restorable with the native serializer, its documented hazard named
  const peerStates = peer.map((found) => {
    const stateKey = `${found.operator.id}/${found.state.name}`;
    const uidKey = found.operator.uid ? `${found.operator.uid}/${found.state.name}` : undefined;
    const newRoot = input.newRoots?.[stateKey] ?? (uidKey ? input.newRoots?.[uidKey] : undefined) ?? input.newRoot;
    return { found, compatibility: evaluatePeerSerdeState(found.snapshot.className, found.peer, target, newRoot) };
  });
  return { opened, session, newSettings, target, protobuf: evaluated, kryo: kryoStates, peer: peerStates, other };
}

function parseSavedSet(sets: Map<string, FileDescriptorSet>, sha256: string, bytes: Uint8Array): FileDescriptorSet {
  let set = sets.get(sha256);
  if (set === undefined) sets.set(sha256, (set = fromBinary(FileDescriptorSetSchema, bytes)));
  return set;
}
