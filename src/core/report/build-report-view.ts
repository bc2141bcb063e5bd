/**
 * What the app shows of a compatibility report besides the report itself, worked out where the report is
 * built (the worker) so the page only draws plain data: each state's findings as the text formats list them,
 * its inferred-verdict lines, what the new schema makes of a saved unknown field number, the new schema's
 * lines, and the value alerts (collectValueAlerts). The JSON report does not carry it (formatJson writes
 * the report alone).
 */
import { describeNewDeclaration, type NewDeclaration } from '../compat';
import { collectValueAlerts, type ValueAlerts } from './collect-value-alerts';
import { listNewSchemaLines } from './describe-new-schema';
import { listInferredLines } from './describe-state';
import { describeNoteScope, describeStateFindings } from './describe-state-findings';
import type { CompatibilityReport, ReportFinding, ReportState } from './report-types';

/** One state's findings: each by its own statement, and each rule's shared note once, with its scope (`(the finding above)`). */
export interface DescribedStateFindings {
  findings: { finding: ReportFinding; statement: string }[];
  notes: { ruleId: ReportFinding['ruleId']; scope: string; note: string }[];
}

/** What the new schema makes of saved unknown field numbers of one state (describeNewDeclaration, read from its diff). */
export interface NewFieldDeclarations {
  /** saved messages the state's diff reaches: a number of another message is `unknown-message` */
  reachedMessages: string[];
  /** every field the diff's new side declares in a reached message, for each wire type; a number of a reached message not listed is `undeclared` */
  fields: { message: string; number: number; wireType: number; declaration: NewDeclaration }[];
}

export interface ReportStateView {
  findings: DescribedStateFindings;
  /** the planning aid's findings (a NOT RESTORABLE state's directional marks), when the state has one */
  planningAidFindings?: DescribedStateFindings;
  /** listInferredLines: why an inferred verdict is not exact (empty when the verdict is not inferred) */
  inferredLines: string[];
  newFields: NewFieldDeclarations;
}

export interface ReportView {
  /** the new schema's lines without Java class names (listNewSchemaLines); empty without `newSchema` */
  newSchemaLines: string[];
  valueAlerts: ValueAlerts;
  /** one per `report.states[i]`, in order */
  states: ReportStateView[];
}

/** Protobuf's wire types 0 (VARINT) to 5 (I32). */
const WIRE_TYPES = [0, 1, 2, 3, 4, 5];

export function buildReportView(report: CompatibilityReport): ReportView {
  return {
    newSchemaLines: report.newSchema ? listNewSchemaLines(report.newSchema, undefined, { javaClasses: false }) : [],
    valueAlerts: collectValueAlerts(report),
    states: report.states.map((s) => ({
      findings: describeFindings(s.findings),
      ...(s.planningAid ? { planningAidFindings: describeFindings(s.planningAid.findings) } : {}),
      inferredLines: listInferredLines(s),
      newFields: listNewFieldDeclarations(s),
    })),
  };
}

function describeFindings(findings: readonly ReportFinding[]): DescribedStateFindings {
  const described = describeStateFindings(findings);
  return { findings: described.findings, notes: described.notes.map((n) => ({ ruleId: n.ruleId, scope: describeNoteScope(n), note: n.note })) };
}

function listNewFieldDeclarations(s: ReportState): NewFieldDeclarations {
  const messages = (s.diff?.declarations ?? []).flatMap((d) =>
    d.kind === 'message' && d.savedName !== undefined ? [{ savedName: d.savedName, rows: d.rows }] : [],
  );
  const fields: NewFieldDeclarations['fields'] = [];
  for (const d of messages) {
    for (const row of d.rows) {
      if (row.kind !== 'field' || !/^\d+$/.test(row.key)) continue;
      const number = Number(row.key);
      for (const wireType of WIRE_TYPES) {
        const declaration = describeNewDeclaration(s.diff, d.savedName, number, wireType);
        if (declaration.kind !== 'undeclared') fields.push({ message: d.savedName, number, wireType, declaration });
      }
    }
  }
  return { reachedMessages: [...new Set(messages.map((d) => d.savedName))], fields };
}
