/**
 * The evaluator's plain-data model. Inputs are built from a serializer
 * snapshot (saved side) and a user's descriptor set (new side), or directly in tests.
 */
import type { FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import type { RuleId, RuleParams, ValueRuleId } from './rules';

export interface SerializerSettings {
  deterministicSerialization: boolean;
  maxMessageSize: number;
  recursionLimit: number;
  /** absent in 0.x snapshots (never aliased) */
  largePayloadAliasing?: boolean;
}

/** Defaults of the library: 64 MiB, depth 100, deterministic off, aliasing on. */
export const DEFAULT_SETTINGS: Readonly<Required<SerializerSettings>> = Object.freeze({
  deterministicSerialization: false,
  maxMessageSize: 67_108_864,
  recursionLimit: 100,
  largePayloadAliasing: true,
});

export type TypeKind = 'generated' | 'dynamic';
/** Which library line wrote / reads the snapshot. */
export type LibraryLine = '0.x' | '1.x';

export interface SavedSide {
  savedSet: FileDescriptorSet;
  /** root message full name, no leading dot */
  savedRoot: string;
  /** Java binary class name (generated-class state only) */
  savedJavaClass?: string;
  savedKind: TypeKind;
  /** absent when the snapshot's settings were not read (a snapshot read by structure): the limit rules are not checked */
  savedSettings?: SerializerSettings;
  /** snapshot class as Flink recorded it */
  snapshotClass: string;
  /** library line that wrote the snapshot */
  savedLine: LibraryLine;
  /** the snapshot was read by structure (a class no reader knows): every answer is inferred, never exact */
  inferred?: InferredEvaluation;
}

/** What an inferred verdict rests on (from the snapshot's InferredSnapshotNote) and what it could not check. */
export interface InferredEvaluation {
  by: string;
  read: { what: string; offset: number; length: number; encoding?: string }[];
  notRead: string[];
  /** the rules or facts the verdict does not cover */
  notChecked: string[];
}

export interface NewSide {
  newSet: FileDescriptorSet;
  newRoot: string;
  newKind: TypeKind;
  /** Java binary class name; derived from the file options when absent (generated only) */
  newJavaClass?: string;
  newSettings: SerializerSettings;
  target: LibraryLine;
  /**
   * Both sides are what generated code embeds (the new set read from the job's JAR, the saved one
   * from a snapshot or another jar): compare every json_name as written, none is derived. Default:
   * a json_name equal to the derived one is dropped on both sides (a protoc/buf descriptor set).
   */
  keepJsonNames?: boolean;
}

export type Verdict = 'compatible' | 'incompatible' | 'not-restorable' | 'unknown';

/** The rules a finding can be of (the value rules give warnings, not findings). */
export type FindingRuleId = Exclude<RuleId, ValueRuleId>;

/** A finding of rule `Id`; createFinding makes every one. */
export interface FindingOf<Id extends FindingRuleId> {
  ruleId: Id;
  accepted: boolean;
  /** logical location: `example.Event`, `example.Event.count (2)`, `file event.proto`, `settings` */
  path: string;
  /** rendered from the rule's template and `params` */
  message: string;
  /** the values of the template's placeholders */
  params: RuleParams<Id>;
  /** true for findings outside the reached declarations (diff only, never affects the verdict) */
  unreached?: boolean;
}

/** A finding of any rule: narrowing `ruleId` types `params`. */
export type Finding = { [Id in FindingRuleId]: FindingOf<Id> }[FindingRuleId];
