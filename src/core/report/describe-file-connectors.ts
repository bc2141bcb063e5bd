/**
 * The FileSource / FileSink lines of "Sources and sinks" (issue #36): per FileSource each reader's split (file,
 * byte range, where it resumes), the enumerator's pending splits and processed paths; per FileSink writer each
 * bucket's in-progress part file, and the committer's pending part files. Appended by describeSourcesAndSinks.
 */
import type { ConnectorProblem, FileRecoverableView, FileSourceSplitView, SourcesAndSinks } from '../flink';

const PROBLEM_LABEL: Record<ConnectorProblem['kind'], string> = {
  corrupt: 'corrupt',
  'not-recognised': 'not recognised',
  'unsupported-version': 'unsupported version',
  'not-decoded': 'not decoded',
};

export function describeFileConnectors(s: SourcesAndSinks): string[] {
  const out: string[] = [];
  for (const src of s.fileSources ?? []) {
    out.push(
      `  FileSource ${label(src)}, parallelism ${src.parallelism}: ${src.splits.length} of ${src.splitElements} split${src.splitElements === 1 ? '' : 's'} decoded`,
    );
    for (const sp of src.splits) out.push(`    subtask ${sp.subtask}  ${split(sp)}  resumes ${position(sp)}`);
    const e = src.enumerator;
    if (e) {
      out.push(
        `    enumerator: ${e.pendingSplits.length} pending split${e.pendingSplits.length === 1 ? '' : 's'}, ${e.alreadyProcessedPaths.length} processed path${e.alreadyProcessedPaths.length === 1 ? '' : 's'} (pending splits checkpoint v${e.enumStateVersion}, split serializer v${e.splitSerializerVersion}, coordinator serde v${e.coordinatorSerdeVersion})`,
      );
      for (const sp of e.pendingSplits) out.push(`      pending  ${split(sp)}`);
      for (const p of e.alreadyProcessedPaths) out.push(`      processed  ${p}`);
    }
    out.push(...src.problems.map(problemLine));
  }
  for (const k of s.fileSinks ?? []) {
    if (k.connector === 'file-writer') {
      out.push(`  FileSink writer ${label(k)}, parallelism ${k.parallelism}: ${k.buckets.length} bucket state${k.buckets.length === 1 ? '' : 's'}`);
      for (const b of k.buckets) {
        out.push(
          `    subtask ${b.subtask}  bucket ${JSON.stringify(b.bucketId)} (${b.bucketPath}, bucket state v${b.stateVersion})  in-progress ${b.inProgressFile ? recoverable(b.inProgressFile) : 'none'}`,
        );
      }
    } else {
      const n = k.committables.length;
      out.push(`  FileSink committer ${label(k)}, parallelism ${k.parallelism}: ${n} pending committable${n === 1 ? '' : 's'} (part files a restore commits)`);
    }
    for (const c of k.committables) {
      const what = [
        c.pendingFile ? `commit ${recoverable(c.pendingFile)}` : null,
        c.inProgressFileToCleanup ? `clean up ${recoverable(c.inProgressFileToCleanup)}` : null,
        c.compactedFileToCleanup ? `clean up compacted ${c.compactedFileToCleanup}` : null,
      ].filter((x) => x !== null);
      const state = c.state === 'received' ? '' : `, ${c.state}${c.retries > 0 ? ` after ${c.retries} retries` : ''}`;
      out.push(`    subtask ${c.subtask}  checkpoint ${c.checkpointId}  bucket ${JSON.stringify(c.bucketId)}  ${what.join('; ')}${state}`);
    }
    out.push(...k.problems.map(problemLine));
  }
  return out;
}

function label(op: { operatorId: string; uid: string | null; name: string | null }): string {
  return `${op.operatorId}${op.uid ? ` (uid ${op.uid})` : op.name ? ` (${op.name})` : ''}`;
}

function split(sp: FileSourceSplitView): string {
  return `${sp.path}  bytes ${sp.offset}+${sp.length} (file size ${sp.fileSize}, split ${sp.splitId})`;
}

function position(sp: FileSourceSplitView): string {
  if (!sp.position) return 'at the split start';
  const skip = `${sp.position.recordsAfterOffset} record${sp.position.recordsAfterOffset === '1' ? '' : 's'}`;
  return sp.position.offset === '-1' ? `after ${skip} (no offset)` : `at offset ${sp.position.offset} after ${skip}`;
}

function recoverable(f: FileRecoverableView): string {
  const r = f.recoverable;
  const size = f.size !== null ? `, ${f.size} bytes` : '';
  if (r.kind === 'local') return `${f.path ?? r.targetFile}${size} (temp ${r.tempFile}, offset ${r.offset})`;
  return `${f.path ?? '(no path)'}${size} (recoverable of another file system: serializer v${r.serializerVersion}, ${r.bytes} bytes, not decoded)`;
}

function problemLine(p: ConnectorProblem): string {
  return `    [${PROBLEM_LABEL[p.kind]}] ${p.state}: ${p.message}`;
}
