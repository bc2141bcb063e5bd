/** Shared state of one schema comparison walk: both indexes, the findings in order, what was visited. */
import { createFinding } from './create-finding';
import type { DeclarationIndex } from './index-declarations';
import type { RuleParams } from './rules';
import type { Finding, FindingRuleId } from './types';

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
export function addFinding<Id extends FindingRuleId>(ctx: WalkContext, id: Id, path: string, params: RuleParams<Id>): void {
  ctx.findings.push(createFinding(id, path, params, ctx.unreached));
}
