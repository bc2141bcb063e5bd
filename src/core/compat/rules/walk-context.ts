/** Shared state of one schema comparison walk: both indexes, the findings in order, what was visited. */
import { createFinding } from './create-finding';
import type { OptionFinders } from './describe-message-changes';
import { createOptionExtensionFinder } from './find-option-extension';
import type { DeclarationIndex } from '../descriptors/index-declarations';
import type { RuleParams } from './index';
import type { Finding, FindingRuleId } from '../types';

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
  /** where each side's custom options are declared (either set) */
  options: OptionFinders;
}

export function createWalkContext(saved: DeclarationIndex, next: DeclarationIndex, unreached = false): WalkContext {
  return { saved, next, findings: [], comparedFiles: new Set(), comparedEnclosing: new Set(), unreached, options: createOptionFinders(saved, next) };
}

export function createOptionFinders(saved: DeclarationIndex, next: DeclarationIndex): OptionFinders {
  return { saved: createOptionExtensionFinder(saved.set, next.set), next: createOptionExtensionFinder(next.set, saved.set) };
}

/** Appends a finding of rule `id`; its outcome and message come from the registry. */
export function addFinding<Id extends FindingRuleId>(ctx: WalkContext, id: Id, path: string, params: RuleParams<Id>): void {
  ctx.findings.push(createFinding(id, path, params, ctx.unreached));
}
