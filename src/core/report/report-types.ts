/**
 * The report model (docs/report-schema.md): one model, rendered as JSON, Markdown, HTML, JUnit XML,
 * GitHub Actions annotations and text. Deterministic: no timestamps unless passed in, stable order.
 */
import type {
  FindingRuleId,
  InferredEvaluation,
  LibraryLine,
  RuleParams,
  SchemaDiff,
  SerializerSettings,
  StateCompatibility,
  ValueRuleId,
  ValueWarning,
  Verdict,
} from '../compat';
import type { SourcesAndSinks } from '../flink';

export const REPORT_SCHEMA_VERSION = 1;

export interface ReportInputFile {
  /** `saved-descriptors`: the old application's descriptor set that `compare` reads in place of a savepoint */
  role: 'savepoint' | 'saved-descriptors' | 'descriptors' | 'saved-job-jar' | 'job-jar' | 'with-jar';
  name: string;
  size: number;
  /** lower-case hex SHA-256 of the file's bytes (of `_metadata` for a savepoint folder, see docs) */
  sha256: string;
}

export interface ReportOperatorRef {
  id: string;
  uid?: string;
  name?: string;
}

/** What the caller knows about one state; build-report turns it into a ReportState. */
export type ReportStateInput =
  | {
      kind: 'protobuf';
      operator: ReportOperatorRef;
      state: string;
      /** which serializer of the state holds the Protobuf type (VALUE_SERIALIZER, …) */
      role: string;
      snapshotClass: string;
      compatibility: StateCompatibility;
      warnings: readonly ValueWarning[];
      /** number of saved values scanned for the warnings; undefined when values were not scanned */
      valuesScanned?: number;
      /** why the state's saved values were not read (its value warnings were not checked) */
      valuesNotRead?: string;
      diff?: SchemaDiff;
    }
  | {
      kind: 'other';
      operator: ReportOperatorRef;
      state: string;
      role: string;
      snapshotClass: string;
      reason: string;
      /** the values are Protobuf but could not be checked: counted as a Protobuf state of verdict unknown, which fails `check` */
      uncheckedProtobuf?: true;
      /** the state's header could not be read, so whether it holds Protobuf is not known: counted in `summary.headersNotRead`, which fails `check` */
      headerNotRead?: true;
    };

/** A job jar as the report tells it (`check --job-jar`, `compare --job-jar`): what its generated classes and bundled artifacts say. */
export interface JobJarReport {
  name: string;
  /** the `--with` jars, in order */
  with: string[];
  /** protobuf-java gencode versions of the job's generated classes */
  gencodeVersions: string[];
  /** protobuf-java runtime packages the generated classes call; `relocated` when not com.google.protobuf */
  runtimePackages: { name: string; relocated: boolean }[];
  /** the bundled flink-datastream-protobuf line, told by its snapshot classes or its pom.properties */
  library?: { line: LibraryLine; evidence: string; version?: string };
  /** the report's target line was taken from `library` (no --target given) */
  targetFromJar: boolean;
  /** bundled Flink, when the jar holds it */
  flink?: { version?: string; evidence: string };
  /** pom.properties of the bundled artifacts */
  artifacts: { groupId: string; artifactId: string; version: string }[];
  /** each embedded .proto file, the class that embeds it and the jar that holds the class */
  files: { name: string; outerClass: string; jar: string }[];
  /** each message of the job's own files and its Java binary class */
  messages: { fullName: string; javaClass: string }[];
  /** the state-mapping heuristic (check only) */
  stateMapping?: StateMappingReport;
  /**
   * files the generated classes embed in two different versions (present only when there are some; each is in
   * `warnings` too): `kept` built the version the schema holds. `check` gives every state whose new root reaches
   * such a file a JOB_JAR_DESCRIPTOR_CONFLICT finding.
   */
  conflicts?: { file: string; kept: { outerClass: string; jar: string }; other: { outerClass: string; jar: string } }[];
  warnings: string[];
}

/**
 * Heuristic: string literals in the jar's application classes as candidate operator uids and state
 * names. Flink needs --allowNonRestoredState for saved state that no operator of the new job claims,
 * and then drops it.
 */
export interface StateMappingReport {
  heuristic: true;
  /** how the literals were gathered */
  method: string;
  /** why no mapping was made (no application class read): the lists are then empty and say nothing */
  notPossible?: string;
  /** saved operators whose uid (or, without a stored uid, whose id as murmur3_128 of a literal) no literal gives */
  operatorsNotFound: { operator: string; uid?: string }[];
  /** saved states whose name no literal gives */
  statesNotFound: { operator: string; uid?: string; state: string }[];
  /** uids the new job sets (constants passed to `uid(String)`) with no state in the savepoint: those operators start empty */
  newUidsWithoutState: string[];
}

/** Where the new schema came from, and what that input cannot show. */
export interface NewSchemaReport {
  source: 'job-jar' | 'descriptor-set';
  /** differences the comparison cannot see with this input, with what to do about it */
  cannotSee: string[];
  jobJar?: JobJarReport;
}

/** `compare` with a job jar as `--against`: what the old application's jar tells, as `newSchema.jobJar` tells it of the new one. */
export interface SavedSchemaReport {
  source: 'job-jar';
  jobJar: JobJarReport;
}

export interface ReportInput {
  /** `descriptor-sets`: a `compare` report (two descriptor sets, one entry per root message, no savepoint); absent for `check` */
  subject?: 'descriptor-sets';
  tool: { name: string; version: string };
  inputs: readonly ReportInputFile[];
  target: LibraryLine;
  newSettings: SerializerSettings;
  states: readonly ReportStateInput[];
  newSchema?: NewSchemaReport;
  savedSchema?: SavedSchemaReport;
  /** the savepoint's connector views (readSourcesAndSinks, as `inspect` builds them), when it has connector state */
  sourcesAndSinks?: SourcesAndSinks;
  /** ISO time, only when the caller passes one (never read from a clock here) */
  generatedAt?: string;
}

/*
 * Findings and warnings carry their rule's parameters (`params`, the values of the template's
 * placeholders) in memory only, for the app to show them apart: the JSON report leaves them out
 * (formatJson), its schema has no such field.
 */

export type ReportFinding = { [Id in FindingRuleId]: { ruleId: Id; accepted: boolean; path: string; message: string; params: RuleParams<Id> } }[FindingRuleId];

/** A state's first incompatibility. */
export type ReportFirstIncompatibility = { [Id in FindingRuleId]: { ruleId: Id; message: string; params: RuleParams<Id> } }[FindingRuleId];

export type ReportWarning = { [Id in ValueRuleId]: { ruleId: Id; message: string; count: number; keys: string[]; params: RuleParams<Id> } }[ValueRuleId];

export interface ReportState {
  operator: string;
  operatorUid?: string;
  operatorName?: string;
  state: string;
  role: string;
  serializer: string;
  verdict: Verdict;
  /** why the verdict is unknown or not-restorable */
  reason?: string;
  ruleSet?: 'exact' | 'directional' | 'none';
  savedRoot?: string;
  newRoot?: string;
  savedJavaClass?: string;
  newJavaClass?: string;
  firstIncompatibility: ReportFirstIncompatibility | null;
  failureText?: string;
  findings: ReportFinding[];
  warnings: ReportWarning[];
  valuesScanned?: number;
  /** why the saved values were not read (e.g. RocksDB native SST files): no value warning was checked */
  valuesNotRead?: string;
  /** the state's header could not be read: whether it holds Protobuf is not known (verdict unknown, never a pass) */
  headerNotRead?: true;
  planningAid?: { verdict: 'compatible' | 'incompatible'; firstIncompatibility: ReportFirstIncompatibility | null; findings: ReportFinding[] };
  diff?: SchemaDiff;
  /**
   * The saved snapshot's class is one no reader knows and was read by structure: the verdict is inferred, never
   * exact — what it rests on (offsets), what was not read and what it does not check. `check` exits 1 for it.
   */
  inferred?: InferredEvaluation;
}

export interface CompatibilityReport {
  schemaVersion: number;
  /** present only on `compare` reports: the states are root messages of two descriptor sets, not savepoint states */
  subject?: 'descriptor-sets';
  tool: { name: string; version: string };
  generatedAt?: string;
  inputs: ReportInputFile[];
  target: LibraryLine;
  newSettings: Required<SerializerSettings>;
  verdict: Verdict;
  /**
   * `valuesNotRead`: Protobuf states whose saved values could not be read; `inferred`: Protobuf states whose verdict
   * is inferred from a snapshot read by structure; `headersNotRead`: states whose header could not be read (each
   * present only when there are some)
   */
  summary: {
    protobufStates: number;
    compatible: number;
    incompatible: number;
    notRestorable: number;
    unknown: number;
    otherStates: number;
    warnings: number;
    valuesNotRead?: number;
    inferred?: number;
    headersNotRead?: number;
  };
  /**
   * What was not checked, one sentence each (no Protobuf state, states of verdict unknown, headers not read, values
   * not read, inferred verdicts); present when there is any. Any of them makes a verdict that would be `compatible`
   * `unknown` (VERDICT_EXIT_CODES: a CI gate never passes on state it could not check).
   */
  notChecked?: string[];
  /** where the new schema came from (a job jar, or a descriptor set and what it cannot show) */
  newSchema?: NewSchemaReport;
  /** `compare` with a jar as `--against`: what the old application's jar tells */
  savedSchema?: SavedSchemaReport;
  /**
   * `check` of a savepoint with connector state: the "Sources and sinks" views `inspect` shows (Kafka splits with
   * offsets per topic, partition and subtask, the enumerator, legacy consumer offsets, sink transactional id prefixes
   * and pending transactions, every problem); built by the same core function (readSourcesAndSinks). Absent otherwise.
   */
  sourcesAndSinks?: SourcesAndSinks;
  states: ReportState[];
}
