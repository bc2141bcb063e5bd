import type { CompatibilityReport } from '../../core/report';
import { describeLibraryLine, simpleClassName } from '../report/describe-library-line';
import { chooseTargetLine } from '../state/choose-target-line';

/**
 * Why states are not restorable when the saved snapshot belongs to the other library line, with a
 * switch to the saved line and a pointer to the planning aid.
 */
export function LibraryLineNote({ report }: { report: CompatibilityReport }) {
  const block = describeLibraryLine(report);
  if (!block) return null;
  const cls = simpleClassName(block.snapshotClass);
  const n = block.states.length;
  const switchTarget = (
    <button type="button" className="btn small" data-testid="switch-target" onClick={() => chooseTargetLine(block.savedLine === '0.x' ? '0.x' : '1.x')}>
      Switch the target to {block.savedLine}
    </button>
  );
  return (
    <section className="callout bad" data-testid="library-line-note">
      {block.savedLine === '0.x' ? (
        <p>
          This savepoint was written by the 0.x development serializer (<span className="mono">{cls}</span>). The {block.target} library cannot read it: restore
          fails with the text below. Switch the target to 0.x to check the exact rule, or read the {block.target} planning aid: what the {block.target} rules
          would say about this schema change.
        </p>
      ) : (
        <p>
          This savepoint was written by the {block.savedLine} serializer (<span className="mono">{cls}</span>). The {block.target} library cannot read it
          (downgrades are not supported): restore fails with the text below. Switch the target to {block.savedLine} to check this schema change.
        </p>
      )}
      {block.failureText ? <pre className="flink-text">{block.failureText}</pre> : null}
      <div className="callout-actions">
        {switchTarget}
        <span className="muted">
          {n} Protobuf state{n === 1 ? '' : 's'} {n === 1 ? 'is' : 'are'} affected; each row below shows its planning aid next to the verdict.
        </span>
      </div>
    </section>
  );
}
