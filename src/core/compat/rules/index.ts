/** The rule registry: every finding's id, outcome and wording come from here. */
import { IDENTITY_RULES, TARGET_RULES } from './identity-rules';
import { STRUCTURE_RULES } from './structure-rules';
import { VALUE_RULES } from './value-rules';
import { formatRuleTemplate, type RuleDefinition } from './rule';

export type { RuleDefinition, RuleGroup } from './rule';
export { formatRuleTemplate } from './rule';

export const RULES = [...TARGET_RULES, ...IDENTITY_RULES, ...STRUCTURE_RULES, ...VALUE_RULES] as const;
export type RuleId = (typeof RULES)[number]['id'];

const BY_ID: ReadonlyMap<string, RuleDefinition> = new Map(RULES.map((rule) => [rule.id, rule as RuleDefinition]));

export function getRule(id: RuleId): RuleDefinition {
  const rule = BY_ID.get(id);
  if (!rule) throw new Error(`Unknown rule id ${id}`);
  return rule;
}

/** The message of a finding of rule `id`, from the registry's template. */
export function formatRuleMessage(id: RuleId, params: Readonly<Record<string, string | number>>): string {
  return formatRuleTemplate(getRule(id).template, params);
}
