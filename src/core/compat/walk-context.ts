/** Shared state of one schema comparison walk: both indexes, the findings in order, what was visited. */
import { formatRuleMessage, getRule, type RuleId } from './rules';
import type { DeclarationIndex } from './index-declarations';
import type { Finding } from './types';

export interface WalkContext {
  saved: DeclarationIndex;
  next: DeclarationIndex;
  findings: Finding[];
  /** file pairs already compared (`saved|new`) */
  comparedFiles: Set<string>;
  /** enclosing message pairs already compared */
  comparedEnclosing: Set<string>;
  /** marks findings as outside the reached declarations */
  unreached: boolean;
}

export function createWalkContext(saved: DeclarationIndex, next: DeclarationIndex, unreached = false): WalkContext {
  return { saved, next, findings: [], comparedFiles: new Set(), comparedEnclosing: new Set(), unreached };
}

/** Appends a finding of rule `id`; its outcome and message come from the registry. */
export function addFinding(ctx: WalkContext, id: RuleId, path: string, params: Readonly<Record<string, string | number>>): void {
  const rule = getRule(id);
  ctx.findings.push({
    ruleId: id,
    accepted: rule.outcome !== 'rejected',
    path,
    message: formatRuleMessage(id, params),
    ...(ctx.unreached ? { unreached: true } : {}),
  });
}
