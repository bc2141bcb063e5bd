/**
 * JSON rendering: 2-space indentation, keys in model order, trailing newline; identical input gives
 * identical bytes. The rule parameters of findings and warnings stay in memory (docs/report-schema.md
 * has no `params`): the JSON is the model without them.
 */
import type { CompatibilityReport } from './report-types';

export function formatJson(report: CompatibilityReport): string {
  return `${JSON.stringify(report, omitRuleParams, 2)}\n`;
}

/** Leaves out `params` of an object with a `ruleId` (a finding, first incompatibility or warning, the diff's findings too). */
function omitRuleParams(this: unknown, key: string, value: unknown): unknown {
  return key === 'params' && typeof this === 'object' && this !== null && 'ruleId' in this ? undefined : value;
}
