/**
 * A job jar whose generated classes embed one .proto file in two different versions (two protobuf runtimes, or two
 * copies of a file): the schema holds the version reached first. A state whose new root reaches that file cannot be
 * told which version its generated classes build at run time, so it gets a rejected JOB_JAR_DESCRIPTOR_CONFLICT
 * finding naming both classes, and never passes; a state that does not reach the file is left as it is.
 */
import type { FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import { createFinding } from './create-finding';
import { indexDeclarations, type DeclarationIndex } from '../descriptors/index-declarations';
import type { StateCompatibility } from './evaluate-state-compatibility';

/** One file embedded in two versions: the class (and jar) of the version the schema holds, and of the other. */
export interface JobJarConflict {
  file: string;
  kept: { outerClass: string; jar: string };
  other: { outerClass: string; jar: string };
}

const indexes = new WeakMap<FileDescriptorSet, DeclarationIndex>();

export function addJobJarConflictFindings(
  compatibility: StateCompatibility,
  newSet: FileDescriptorSet,
  conflicts: readonly JobJarConflict[],
): StateCompatibility {
  if (conflicts.length === 0) return compatibility;
  const reached = listReachedFiles(newSet, compatibility.newRoot);
  const findings = conflicts
    .filter((c) => reached.has(c.file))
    .map((c) =>
      createFinding('JOB_JAR_DESCRIPTOR_CONFLICT', `file ${c.file}`, {
        file: c.file,
        kept: c.kept.outerClass,
        keptJar: c.kept.jar,
        other: c.other.outerClass,
        otherJar: c.other.jar,
      }),
    );
  if (findings.length === 0) return compatibility;
  const passed = compatibility.verdict === 'compatible';
  return {
    ...compatibility,
    findings: [...compatibility.findings, ...findings],
    ...(passed ? { verdict: 'incompatible' as const, firstIncompatibility: findings[0]! } : {}),
  };
}

/** The file declaring the root message and every file it imports, transitively (empty when the set lacks the root). */
function listReachedFiles(set: FileDescriptorSet, root: string): Set<string> {
  let index = indexes.get(set);
  if (index === undefined) indexes.set(set, (index = indexDeclarations(set)));
  const start = index.byName.get(root);
  const reached = new Set<string>();
  if (start === undefined) return reached;
  const byName = new Map(set.file.map((f) => [f.name, f]));
  const queue = [start.file.name];
  for (let head = 0; head < queue.length; head++) {
    const name = queue[head]!;
    if (reached.has(name)) continue;
    reached.add(name);
    for (const dep of byName.get(name)?.dependency ?? []) queue.push(dep);
  }
  return reached;
}
