/**
 * One state's findings as the text formats and the app list them: each by its own statement, and the note a
 * rule's findings share (why they fail, what to do) once per state, not once per finding. The JSON report keeps
 * each finding's whole message (docs/report-schema.md).
 */
import { splitRuleMessage } from '../compat';
import type { ReportFinding } from './report-types';

export interface StateFindingNote {
  ruleId: ReportFinding['ruleId'];
  /** how many of the state's findings share it */
  count: number;
  note: string;
}

export function describeStateFindings(findings: readonly ReportFinding[]): {
  findings: { finding: ReportFinding; statement: string }[];
  notes: StateFindingNote[];
} {
  const notes = new Map<ReportFinding['ruleId'], StateFindingNote>();
  const listed = findings.map((finding) => {
    const { statement, note } = splitRuleMessage(finding.ruleId, finding.message);
    if (note !== undefined) {
      const seen = notes.get(finding.ruleId);
      if (seen) seen.count++;
      else notes.set(finding.ruleId, { ruleId: finding.ruleId, count: 1, note });
    }
    return { finding, statement };
  });
  return { findings: listed, notes: [...notes.values()] };
}

/** `(2 findings above)`, `(the finding above)`. */
export function describeNoteScope(note: StateFindingNote): string {
  return note.count === 1 ? '(the finding above)' : `(${note.count} findings above)`;
}
