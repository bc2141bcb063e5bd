/**
 * The one place findings and value warnings are made: a rule id and its parameters, the message
 * rendered from the rule's template in the registry, the outcome from the rule.
 */
import { formatRuleMessage, getRule, type RuleParams, type ValueRuleId } from './index';
import type { Finding, FindingRuleId } from '../types';
import type { ValueWarning } from '../value-scan-types';

export function createFinding<Id extends FindingRuleId>(ruleId: Id, path: string, params: RuleParams<Id>, unreached = false): Finding {
  const finding = {
    ruleId,
    accepted: getRule(ruleId).outcome !== 'rejected',
    path,
    message: formatRuleMessage(ruleId, params),
    params,
    ...(unreached ? { unreached: true } : {}),
  };
  // the generic Id keeps ruleId and params together; the union type cannot see that
  return finding as Finding;
}

export function createValueWarning<Id extends ValueRuleId>(
  ruleId: Id,
  params: RuleParams<Id>,
  count: number,
  keys: string[],
  location?: { message: string; number: number },
): ValueWarning {
  const warning = { ruleId, message: formatRuleMessage(ruleId, params), params, count, keys, ...(location ? { location } : {}) };
  return warning as ValueWarning;
}
