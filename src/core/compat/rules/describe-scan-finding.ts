/**
 * The words for the value checks of the structural scan (`stats`, the app's statistics). The protobuf
 * module's scan reports facts: the check, how many values, example keys, what the first example
 * showed. The rule each check stands for and the wording of its example come from the registry
 * (rules/value-rules.ts, a value rule's `scan`).
 */
import type { ProtobufStateScanSummary, ProtobufValueFinding } from '../../protobuf';
import { RULES, formatRuleTemplate, type ValueRuleId } from './index';

/** A scan finding as `stats` prints it. */
export interface DescribedScanFinding {
  id: ValueRuleId;
  count: number;
  exampleKeys: string[];
  /** what the first example shows */
  detail: string;
}

/** A state's scan summary with its findings worded. */
export type DescribedProtobufStateScan = Omit<ProtobufStateScanSummary, 'findings'> & { findings: DescribedScanFinding[] };

/** check → the rule it stands for and the templates of its examples, per kind */
const RULE_OF_CHECK: ReadonlyMap<string, { id: ValueRuleId; examples: Readonly<Record<string, string>> }> = new Map(
  RULES.flatMap((rule) => ('scan' in rule ? [[rule.scan.check, { id: rule.id, examples: rule.scan.examples }] as const] : [])),
);

export function describeScanFinding(f: ProtobufValueFinding): DescribedScanFinding {
  const rule = RULE_OF_CHECK.get(f.check);
  const template = rule?.examples[f.example.kind];
  if (rule === undefined || template === undefined) throw new Error(`No rule words the scan's ${f.check} check with a ${f.example.kind} example`);
  return { id: rule.id, count: f.count, exampleKeys: f.exampleKeys, detail: formatRuleTemplate(template, f.example) };
}

/** The summary with describeScanFinding's findings in place of the facts (the rest as it is, in its order). */
export function describeProtobufStateScan(summary: ProtobufStateScanSummary): DescribedProtobufStateScan {
  return { ...summary, findings: summary.findings.map(describeScanFinding) };
}
