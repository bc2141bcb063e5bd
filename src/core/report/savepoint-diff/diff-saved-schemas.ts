/**
 * Saved-schema changes between two savepoints: for each Protobuf state (and serializer role) on both
 * sides whose saved schema, root or settings differ, the evaluator of `check` with the older savepoint's
 * saved schema as the saved side and the newer one's as the new side (would the older state restore
 * under the newer schema), and the schema diff of the two (compat's buildSchemaDiff).
 */
import {
  buildSchemaDiff,
  evaluateStateCompatibility,
  listSavedSchemas,
  loadDescriptorSet,
  type Finding,
  type LibraryLine,
  type SavedSchema,
} from '../../compat';
import type { CancelSignal, OpenedSavepoint } from '../../flink';
import { PROTOBUF_SNAPSHOT_CLASS } from '../../protobuf';
import type { SavedSchemaChange } from './savepoint-diff-types';

export type SavedSchemasByState = Map<string, SavedSchema[]>;

/** `operatorId/state` → that state's saved schemas */
export async function listSavedSchemasByState(opened: OpenedSavepoint, signal?: CancelSignal): Promise<SavedSchemasByState> {
  const byState: SavedSchemasByState = new Map();
  for (const s of await listSavedSchemas(opened.files, signal ? { signal } : {})) {
    const key = `${s.operatorId}/${s.state}`;
    byState.set(key, [...(byState.get(key) ?? []), s]);
  }
  return byState;
}

/** The 0.1.0 snapshot class is the 0.x line (as `check` takes it); any other is 1.x. */
function lineOf(snapshotClass: string): LibraryLine {
  return snapshotClass === PROTOBUF_SNAPSHOT_CLASS ? '0.x' : '1.x';
}

export function diffSavedSchemas(older: readonly SavedSchema[], newer: readonly SavedSchema[]): SavedSchemaChange[] {
  const changes: SavedSchemaChange[] = [];
  for (const o of older) {
    const n = newer.find((x) => x.role === o.role);
    if (!n) continue;
    if (o.descriptorSha256 === n.descriptorSha256 && o.rootFullName === n.rootFullName && o.javaClass === n.javaClass && sameSettings(o, n)) continue;
    const savedSet = loadDescriptorSet(o.descriptorBytes, `older ${o.state} saved schema`).set;
    const newSet = loadDescriptorSet(n.descriptorBytes, `newer ${n.state} saved schema`).set;
    const compatibility = evaluateStateCompatibility(
      {
        savedSet,
        savedRoot: o.rootFullName,
        savedJavaClass: o.javaClass,
        savedKind: 'generated',
        savedSettings: o.settings,
        snapshotClass: o.snapshotClass,
        savedLine: lineOf(o.snapshotClass),
      },
      { newSet, newRoot: n.rootFullName, newJavaClass: n.javaClass, newKind: 'generated', newSettings: n.settings, target: lineOf(n.snapshotClass) },
    );
    const diff = compatibility.schema ? buildSchemaDiff(compatibility.schema) : undefined;
    changes.push({
      role: o.role,
      olderRoot: o.rootFullName,
      newerRoot: n.rootFullName,
      olderSha256: o.descriptorSha256,
      newerSha256: n.descriptorSha256,
      verdict: compatibility.verdict,
      ...(compatibility.firstIncompatibility ? { firstIncompatibility: compatibility.firstIncompatibility.message } : {}),
      findings: compatibility.findings.map(describeFinding),
      changes: (compatibility.schema?.findings ?? []).map(describeFinding),
      changedDeclarations: (diff?.declarations ?? [])
        .filter((d) => d.status !== 'unchanged')
        .map((d) => ({ name: d.newName ?? d.savedName ?? '', status: d.status as 'changed' | 'added' | 'removed' })),
    });
  }
  return changes;
}

function describeFinding(f: Finding): SavedSchemaChange['findings'][number] {
  return { ruleId: f.ruleId, accepted: f.accepted, path: f.path, message: f.message };
}

function sameSettings(a: SavedSchema, b: SavedSchema): boolean {
  return JSON.stringify(a.settings) === JSON.stringify(b.settings);
}
