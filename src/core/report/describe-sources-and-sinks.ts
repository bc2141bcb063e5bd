/**
 * The "Sources and sinks" lines of a savepoint (issue #36): per Kafka source operator each split's topic,
 * partition, starting and stopping offset and subtask, the enumerator's assigned partitions; the legacy
 * FlinkKafkaConsumer's offsets; each sink writer's transactional id prefix; the committer's pending transactions;
 * and every problem by kind. One
 * text for `inspect`'s text output and the reports; the app shows the same model in its Overview.
 */
import type { ConnectorProblem, KafkaEnumeratorSplitView, KafkaSplitView, SourcesAndSinks } from '../flink';
import { describeFileConnectors } from './describe-file-connectors';

const PROBLEM_LABEL: Record<ConnectorProblem['kind'], string> = {
  corrupt: 'corrupt',
  'not-recognised': 'not recognised',
  'unsupported-version': 'unsupported version',
  'not-decoded': 'not decoded',
};

export function describeSourcesAndSinks(s: SourcesAndSinks): string[] {
  const out: string[] = [];
  for (const src of s.sources) {
    const what = src.connector === 'kafka' ? 'Kafka source' : 'Source (not recognised)';
    out.push(
      `  ${what} ${operatorLabel(src)}, parallelism ${src.parallelism}: ${src.splits.length} of ${src.splitElements} split${src.splitElements === 1 ? '' : 's'} decoded`,
    );
    for (const sp of src.splits)
      out.push(`    subtask ${sp.subtask}  ${sp.topic}-${sp.partition}  starting offset ${startingOffset(sp)}  stopping offset ${stoppingOffset(sp)}`);
    const e = src.enumerator;
    if (e) {
      const parts = [`assigned ${e.assignedPartitions.length === 0 ? 'none' : e.assignedPartitions.map((p) => `${p.topic}-${p.partition}`).join(', ')}`];
      if (e.unassignedInitialPartitions.length > 0)
        parts.push(`unassigned initial ${e.unassignedInitialPartitions.map((p) => `${p.topic}-${p.partition}`).join(', ')}`);
      if (e.initialDiscoveryFinished !== null) parts.push(`initial discovery ${e.initialDiscoveryFinished ? 'finished' : 'not finished'}`);
      out.push(`    enumerator: ${parts.join('; ')} (enumerator state v${e.enumStateVersion}, coordinator serde v${e.coordinatorSerdeVersion})`);
      out.push(...enumeratorSplitLines(e.splits));
    }
    out.push(...src.problems.map(problemLine));
  }
  for (const c of s.legacyKafkaConsumers) {
    out.push(
      `  Legacy FlinkKafkaConsumer ${operatorLabel(c)}, parallelism ${c.parallelism}: ${c.offsets.length} partition offset${c.offsets.length === 1 ? '' : 's'} (union state)`,
    );
    for (const o of c.offsets) {
      const offset = o.offsetMarker ? `${o.offsetMarker} (${o.offset})` : `${o.offset} (last record emitted)`;
      out.push(`    subtask ${o.subtask}  ${o.topic}-${o.partition}  offset ${offset}`);
    }
    out.push(...c.problems.map(problemLine));
  }
  for (const k of s.sinks) {
    const what = k.connector === 'kafka' ? 'Kafka sink writer' : k.connector === 'committer' ? 'Sink committer' : 'Sink writer (not recognised)';
    out.push(
      `  ${what} ${operatorLabel(k)}, parallelism ${k.parallelism}${k.writers.length > 0 ? `: ${k.writers.length} writer state${k.writers.length === 1 ? '' : 's'}` : ''}`,
    );
    for (const w of k.writers) {
      const owned =
        w.ownedSubtaskId !== undefined ? `, owns subtask ${w.ownedSubtaskId} of ${w.totalNumberOfOwnedSubtasks}, ownership ${w.transactionOwnership}` : '';
      out.push(`    subtask ${w.subtask}  transactional id prefix ${JSON.stringify(w.transactionalIdPrefix)} (writer state v${w.stateVersion}${owned})`);
      for (const t of w.ongoingTransactions) out.push(`      precommitted transaction ${JSON.stringify(t.transactionalId)} of checkpoint ${t.checkpointId}`);
    }
    if (k.pendingTransactions.length > 0) {
      const n = k.pendingTransactions.length;
      out.push(`    ${n} pending transaction${n === 1 ? '' : 's'} (committables a restore commits):`);
    }
    for (const t of k.pendingTransactions) {
      const state = t.state === 'received' ? '' : `, ${t.state}${t.retries > 0 ? ` after ${t.retries} retries` : ''}`;
      out.push(
        `    subtask ${t.subtask}  transactional id ${JSON.stringify(t.transactionalId)}  producer id ${t.producerId}  epoch ${t.epoch}  checkpoint ${t.checkpointId}${state}`,
      );
    }
    out.push(...k.problems.map(problemLine));
  }
  out.push(...describeFileConnectors(s));
  return out;
}

/** Enumerator state v3: each split as the enumerator assigned it (its offsets are the job's initial ones, not a reader's progress). */
function enumeratorSplitLines(splits: readonly KafkaEnumeratorSplitView[] | undefined): string[] {
  if (!splits || splits.length === 0) return [];
  return [
    `    enumerator splits (as assigned, ${splits.length}):`,
    ...splits.map((sp) => `      ${sp.topic}-${sp.partition}  ${sp.status}  starting offset ${startingOffset(sp)}  stopping offset ${stoppingOffset(sp)}`),
  ];
}

function operatorLabel(op: { operatorId: string; uid: string | null; name: string | null }): string {
  return `${op.operatorId}${op.uid ? ` (uid ${op.uid})` : op.name ? ` (${op.name})` : ''}`;
}

function startingOffset(sp: Omit<KafkaSplitView, 'subtask'>): string {
  return sp.startingOffsetMarker ? `${sp.startingOffsetMarker} (${sp.startingOffset})` : sp.startingOffset;
}

function stoppingOffset(sp: Omit<KafkaSplitView, 'subtask'>): string {
  if (sp.stoppingOffset === null) return 'none (unbounded)';
  return sp.stoppingOffsetMarker ? `${sp.stoppingOffsetMarker} (${sp.stoppingOffset})` : sp.stoppingOffset;
}

function problemLine(p: ConnectorProblem): string {
  return `    [${PROBLEM_LABEL[p.kind]}] ${p.state}: ${p.message}`;
}
