import { useEffect } from 'react';
import type { LibraryLine } from '../../core/compat';
import type { InspectorFailure } from '../../worker';
import { describeVerdictReason } from '../report/describe-verdict-reason';
import { chooseTargetLine } from '../state/choose-target-line';
import { useHeaderCheck } from '../state/use-check';
import { useInspection } from '../state/use-inspection';
import { FailurePanel } from './failure-panel';
import { VerdictBadge } from './verdict-badge';

const LINES: readonly { line: LibraryLine; title: string; explain: string }[] = [
  { line: '0.x', title: '0.x', explain: 'the development line (0.1.0): restores only an identical schema' },
  { line: '1.x', title: '1.x', explain: 'the released line: checks each schema change (adding a field is fine, changing its type is not)' },
];

/**
 * The question the verdict depends on, asked once, up front: which `flink-datastream-protobuf` line the
 * new job runs. Each answer previews its verdict (from `_metadata` and the state headers), so the choice
 * is informed; the answer goes into the URL.
 */
export function TargetLineQuestion() {
  // a dropped job jar that bundles the library answers the question itself, as `check --job-jar` takes it
  const fromJar = useJarLibraryLine();
  useEffect(() => {
    if (fromJar) chooseTargetLine(fromJar.line);
  }, [fromJar]);
  // a check that failed (e.g. a jar that gives no schema) is said here, in full, not only in a later view
  const failures = useDistinctPreviewFailures();
  return (
    <section className="callout question" data-testid="target-question" aria-labelledby="target-question-title">
      <h2 id="target-question-title">Which flink-datastream-protobuf line will the new job run?</h2>
      <p className="muted">
        The verdict depends on it: the library decides on restore whether the saved state can be read with the new schema, and its two lines decide differently.
        Pick the version in the new job&apos;s build (Maven/Gradle dependency <span className="mono">flink-datastream-protobuf</span>).
      </p>
      <div className="target-choices">
        {LINES.map((l) => (
          <TargetChoice key={l.line} line={l.line} title={l.title} explain={l.explain} />
        ))}
      </div>
      {failures.map((f, i) => (
        <FailurePanel key={i} failure={f} context="checking compatibility (the target-line previews)" />
      ))}
    </section>
  );
}

function TargetChoice({ line, title, explain }: { line: LibraryLine; title: string; explain: string }) {
  const preview = useHeaderCheck(line);
  const inputType = useInspection().data?.type;
  return (
    <button type="button" className="target-choice" onClick={() => chooseTargetLine(line)} data-testid={`choose-target-${line}`}>
      <span className="target-choice-title">
        The new job runs <strong>{title}</strong> <span className="muted">— {explain}</span>
      </span>
      {preview.data ? (
        <span className="target-choice-preview" data-testid="target-preview">
          <VerdictBadge verdict={preview.data.verdict} /> {describeVerdictReason(preview.data, 0, inputType)}
        </span>
      ) : (
        <span className="muted" data-testid={preview.error ? 'target-preview-failed' : undefined}>
          {preview.error ? 'no preview: the check failed — why is said below' : 'checking…'}
        </span>
      )}
    </button>
  );
}

/** The failures of the two previews, each once (both lines usually fail alike: the schema could not be read). */
function useDistinctPreviewFailures(): InspectorFailure[] {
  const zero = useHeaderCheck('0.x').error;
  const one = useHeaderCheck('1.x').error;
  const all = [zero, one].filter((f): f is InspectorFailure => f !== null);
  return all.filter((f, i) => all.findIndex((g) => JSON.stringify(g) === JSON.stringify(f)) === i);
}

/** The line the dropped job jar bundles (its flink-datastream-protobuf classes), once the header check read the jar. */
function useJarLibraryLine(): { line: LibraryLine; evidence: string } | undefined {
  const preview = useHeaderCheck('1.x');
  const library = preview.data?.newSchema?.jobJar?.library;
  return library ? { line: library.line, evidence: library.evidence } : undefined;
}

/** The answer, once given, in one line with the way to change it (and where it came from, when the job jar gave it). */
export function TargetLineAnswer({ target }: { target: LibraryLine }) {
  const other: LibraryLine = target === '0.x' ? '1.x' : '0.x';
  const fromJar = useJarLibraryLine();
  return (
    <>
      <p className="target-answer" data-testid="target-answer">
        Checked for a new job on <span className="mono">flink-datastream-protobuf</span> <strong>{target}</strong>{' '}
        <span className="muted">({LINES.find((l) => l.line === target)!.explain})</span>
        {fromJar?.line === target ? <span data-testid="target-from-jar"> — the line the new job&apos;s jar bundles: {fromJar.evidence}</span> : null}.{' '}
        <button type="button" className="btn small link" onClick={() => chooseTargetLine(other)} data-testid="change-target">
          It runs {other}
        </button>
      </p>
      {fromJar && fromJar.line !== target ? (
        // never silent: the verdict is for the line the user chose, not for the one the jar would run
        <p className="callout warn" role="status" data-testid="target-contradicts-jar">
          <strong>
            The jar bundles {fromJar.line}; you chose {target}.
          </strong>{' '}
          This verdict is for {target}, but the new job&apos;s jar as built runs flink-datastream-protobuf {fromJar.line} — {fromJar.evidence}.{' '}
          <em>It runs {other}</em> above checks that line.
        </p>
      ) : null}
    </>
  );
}
