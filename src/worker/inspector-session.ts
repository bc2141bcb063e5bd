import type { OpenedSavepoint, SnapshotRegistry, SubtaskHeaderCache } from '../core/flink';
import type { SavepointFiles } from '../core/io';
import type { CompatibilityReport } from '../core/report';
import type { SwitchingStep } from './create-switching-step';
import type { InputFile, OpenedSession } from './inspector';
import type { ScannedState } from './scan-state-statistics';

/** What LocalInspector keeps of an open input: its files, and every result read from them. */
export interface Session {
  opened: OpenedSession;
  savepoint: SavepointFiles | null;
  /** path, size and modification time of the savepoint's files (null when a file has no time): reopening them needs no read */
  fileKey: string | null;
  descriptorSet: InputFile | null;
  metadata?: Promise<OpenedSavepoint>;
  /** state scans by state and sample, running or done; a failed or cancelled scan is removed */
  scans: Map<string, Promise<ScannedState>>;
  /** reports with the value scan, and header-only reports, by check options */
  reports: Map<string, CompatibilityReport>;
  headerReports: Map<string, CompatibilityReport>;
  /** page reads run one at a time through one registry whose Protobuf codec mode they switch */
  pages: { queue: Promise<unknown>; registry: Promise<SnapshotRegistry>; headers: SubtaskHeaderCache; reader: SwitchingStep } | null;
}

/** A session with a savepoint (not a descriptor set alone). */
export type OpenSession = Session & { savepoint: SavepointFiles };

export function createSession(opened: OpenedSession, savepoint: SavepointFiles | null, descriptorSet: InputFile | null, fileKey: string | null): Session {
  return { opened, savepoint, fileKey, descriptorSet, scans: new Map(), reports: new Map(), headerReports: new Map(), pages: null };
}
