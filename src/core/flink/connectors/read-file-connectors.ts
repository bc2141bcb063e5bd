/**
 * The FileSource and FileSink views (connector-types.ts, FileSourceView / FileSinkView) from the same connector states the Kafka views read
 * (read-sources-and-sinks.ts): a source's `SourceReaderState` elements and coordinator state, a sink writer's
 * `writer_raw_states` and a committer's `streaming_committer_raw_states`. Which layout an operator's bytes follow is
 * not written in the savepoint: an operator is a FileSource when one of its splits has FileSourceSplit v1's exact
 * shape or its enumerator state starts with PendingSplitsCheckpoint's magic number; a FileSink writer when a writer
 * state starts with the bucket state's magic number; a FileSink committer when a committable starts with
 * FileSinkCommittable's. Then every other byte of that operator's state is `corrupt` where it breaks the layout, or
 * `unsupported-version`; an operator with none of these marks is not a file connector (undefined).
 */
import { ByteReader, isDecodeError, type DecodeError } from '../../io';
import { connectorProblem } from './connector-problem';
import type { OperatorState } from '../metadata/metadata-types';
import type { ConnectorProblem, FileEnumeratorView, FileSinkView, FileSourceSplitView, FileSourceView } from '../savepoint/connector-types';
import { readCommittableCollector, type CommitRequest } from './committer-layouts';
import {
  BUCKET_STATE_MAGIC,
  hasFileCommittableShape,
  hasFileSplitShape,
  PENDING_SPLITS_MAGIC,
  readFileSinkCommittable,
  readFileSourceSplit,
  readFileWriterBucketState,
  readPendingSplitsCheckpoint,
} from './file-layouts';
import { readSourceCoordinatorEnvelope, readVersionedEnvelope } from './kafka-layouts';

/** One element of a connector state (as read-sources-and-sinks.ts reads them; declared here so the two files do not import each other). */
export interface Element {
  subtask: number;
  index: number;
  bytes: Uint8Array;
  file: string;
  offset: number;
}

export type OperatorRef = Pick<FileSourceView, 'operatorId' | 'uid' | 'name' | 'parallelism'>;

const READER_STATE = 'SourceReaderState';
const WRITER_STATE = 'writer_raw_states';
const COMMITTER_STATE = 'streaming_committer_raw_states';

function fromError(state: string, subtask: number | null, element: number | null, where: string, e: DecodeError): ConnectorProblem {
  return connectorProblem(e.code === 'unsupported-version' ? 'unsupported-version' : 'corrupt', state, subtask, element, `${where}: ${e.message}`, e);
}

function readerOf(el: Element): ByteReader {
  return new ByteReader(el.bytes, { file: el.file, baseOffset: el.offset });
}

/** Runs `f`; a DecodeError becomes a problem (other errors are bugs and pass). */
function attempt<T>(f: () => T, onError: (e: DecodeError) => void): T | undefined {
  try {
    return f();
  } catch (e) {
    if (!isDecodeError(e)) throw e;
    onError(e);
    return undefined;
  }
}

function startsWithMagic(r: ByteReader, magic: number, littleEndian: boolean): boolean {
  if (r.remaining < 4) return false;
  const b = [r.peekU8(0)!, r.peekU8(1)!, r.peekU8(2)!, r.peekU8(3)!];
  const v = littleEndian ? b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24) : (b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!;
  return v === magic;
}

/** The FileSource view of a source operator, or undefined when neither its splits nor its enumerator are the file connector's. */
export function buildFileSourceView(
  ref: OperatorRef,
  elements: Element[],
  coordinator: Extract<OperatorState['coordinatorState'], { kind: 'inline' }> | undefined,
  readProblems: ConnectorProblem[],
): FileSourceView | undefined {
  const parsed = elements.map((el) => {
    try {
      const env = readVersionedEnvelope(readerOf(el), `split #${el.index} of subtask ${el.subtask}`);
      return { el, env, fileShaped: hasFileSplitShape(env.payload, env.version) };
    } catch (e) {
      if (!isDecodeError(e)) throw e;
      return { el, error: e };
    }
  });
  let coordinatorEnv: ReturnType<typeof readSourceCoordinatorEnvelope> | undefined;
  if (coordinator) {
    coordinatorEnv = attempt(
      () => readSourceCoordinatorEnvelope(new ByteReader(coordinator.data, { file: '_metadata', baseOffset: coordinator.offset })),
      () => undefined,
    );
  }
  const enumIsFile = coordinatorEnv !== undefined && startsWithMagic(coordinatorEnv.enumerator, PENDING_SPLITS_MAGIC, true);
  if (!enumIsFile && !parsed.some((p) => p.fileShaped === true)) return undefined;
  const problems = [...readProblems];
  const splits: FileSourceSplitView[] = [];
  for (const p of parsed) {
    const where = `split #${p.el.index} of subtask ${p.el.subtask}`;
    if (p.error) {
      problems.push(connectorProblem('corrupt', READER_STATE, p.el.subtask, p.el.index, p.error.message, p.error));
      continue;
    }
    const split = attempt(
      () => readFileSourceSplit(p.env!.payload, p.env!.version),
      (e) => problems.push(fromError(READER_STATE, p.el.subtask, p.el.index, where, e)),
    );
    if (split) splits.push({ subtask: p.el.subtask, ...split });
  }
  splits.sort((a, b) => a.subtask - b.subtask || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  let enumerator: FileEnumeratorView | null = null;
  if (coordinator && !coordinatorEnv) {
    // read again for the message: the coordinator state is not a source coordinator's envelope
    attempt(
      () => readSourceCoordinatorEnvelope(new ByteReader(coordinator.data, { file: '_metadata', baseOffset: coordinator.offset })),
      (e) => problems.push(fromError('coordinator state', null, null, 'source coordinator state', e)),
    );
  } else if (coordinatorEnv) {
    const env = coordinatorEnv;
    const state = attempt(
      () => readPendingSplitsCheckpoint(env.enumerator, env.enumVersion),
      (e) => problems.push(fromError('coordinator state', null, null, 'FileSource enumerator state', e)),
    );
    if (state) {
      enumerator = {
        coordinatorSerdeVersion: env.coordinatorSerdeVersion,
        enumStateVersion: env.enumVersion,
        splitSerializerVersion: state.splitSerializerVersion,
        pendingSplits: state.pendingSplits.map((s) => ({ subtask: -1, ...s })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
        alreadyProcessedPaths: [...state.alreadyProcessedPaths].sort(),
      };
    }
  }
  return { ...ref, connector: 'file', splits, splitElements: elements.length, enumerator, problems };
}

/** The FileSink view of a Sink V2 writer or committer operator, or undefined when its state is not the file sink's. */
export function buildFileSinkView(
  ref: OperatorRef,
  writerElements: Element[],
  committerElements: Element[],
  readProblems: ConnectorProblem[],
): FileSinkView | undefined {
  const writers = writerElements.map((el) => {
    try {
      const env = readVersionedEnvelope(readerOf(el), `writer state #${el.index} of subtask ${el.subtask}`);
      return { el, env, fileShaped: startsWithMagic(env.payload, BUCKET_STATE_MAGIC, false) };
    } catch (e) {
      if (!isDecodeError(e)) throw e;
      return { el, error: e };
    }
  });
  const committers = committerElements.map((el) => {
    const where = `committer state #${el.index} of subtask ${el.subtask}`;
    try {
      const env = readVersionedEnvelope(readerOf(el), where);
      const requests = readCommittableCollector(env.payload, env.version);
      return { el, requests, fileShaped: requests.some((rq) => hasFileCommittableShape(rq.committable, rq.committableVersion)) };
    } catch (e) {
      if (!isDecodeError(e)) throw e;
      return { el, error: e };
    }
  });
  const isWriter = writers.some((w) => w.fileShaped === true);
  const isCommitter = committers.some((c) => c.fileShaped === true);
  if (!isWriter && !isCommitter) return undefined;
  const problems = [...readProblems];
  const buckets: FileSinkView['buckets'] = [];
  for (const w of writers) {
    const where = `writer state #${w.el.index} of subtask ${w.el.subtask}`;
    if (w.error) {
      problems.push(connectorProblem('corrupt', WRITER_STATE, w.el.subtask, w.el.index, w.error.message, w.error));
      continue;
    }
    const b = attempt(
      () => readFileWriterBucketState(w.env!.payload, w.env!.version),
      (e) => problems.push(fromError(WRITER_STATE, w.el.subtask, w.el.index, where, e)),
    );
    if (b) buckets.push({ subtask: w.el.subtask, stateVersion: w.env!.version, ...b });
  }
  buckets.sort((a, b) => a.subtask - b.subtask || (a.bucketId < b.bucketId ? -1 : a.bucketId > b.bucketId ? 1 : 0));
  const committables: FileSinkView['committables'] = [];
  for (const c of committers) {
    const where = `committer state #${c.el.index} of subtask ${c.el.subtask}`;
    if (c.error) {
      problems.push(fromError(COMMITTER_STATE, c.el.subtask, c.el.index, where, c.error));
      continue;
    }
    c.requests!.forEach((rq: CommitRequest, i) => {
      const f = attempt(
        () => readFileSinkCommittable(rq.committable, rq.committableVersion),
        (e) => problems.push(fromError(COMMITTER_STATE, c.el.subtask, c.el.index, `${where}, committable #${i}`, e)),
      );
      if (f) {
        committables.push({
          subtask: c.el.subtask,
          recordedSubtaskId: rq.subtaskId,
          checkpointId: rq.checkpointId,
          ...f,
          state: rq.state,
          retries: rq.retries,
        });
      }
    });
  }
  committables.sort(
    (a, b) =>
      a.subtask - b.subtask ||
      Number(BigInt(a.checkpointId) - BigInt(b.checkpointId)) ||
      (a.bucketId < b.bucketId ? -1 : a.bucketId > b.bucketId ? 1 : 0) ||
      ((a.pendingFile?.path ?? '') < (b.pendingFile?.path ?? '') ? -1 : (a.pendingFile?.path ?? '') > (b.pendingFile?.path ?? '') ? 1 : 0),
  );
  return { ...ref, connector: isWriter ? 'file-writer' : 'file-committer', buckets, committables, problems };
}
