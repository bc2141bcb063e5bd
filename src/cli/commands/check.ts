/**
 * `check <savepoint> (--descriptors <new.binpb> | --job-jar <new.jar> [--with <dep.jar> …]) [--target 0.x|1.x] [--max-message-size N]
 * [--recursion-limit N] [--deterministic true|false] [--aliasing true|false] [--root NAME]
 * [--root <op>/<state>=NAME …] [--java-class NAME] [--format …] [--output FILE] [--no-values] [--workers N]`:
 * will the restore work with the new schema, per Protobuf state. The exit code is the overall verdict's
 * (core/report VERDICT_EXIT_CODES: only compatible exits 0), 2 for unusable input.
 */
import { MAX_DESCRIPTOR_BYTES } from '../../core/protobuf';
import path from 'node:path';
import { checkSavepoint, REPORT_FORMATS, type CompatibilityReport, describeJobJarSchema, formatExitCodeLines, formatShowsSchemaDiff } from '../../core/report';
import { withSarifOnFailure } from './sarif-on-failure';
import { CliUsageError, EXIT_OK, type CliCommand } from '../cli-types';
import { createShardFilesValueScanner, writeValueScanShard } from './value-scan-shards';
import { writeCompatibilityReport } from '../write-report';
import { CONFIG_FILE_NAME, CONFIG_OPTIONS, CONFIG_USAGE, resolveCliConfig } from '../load-cli-config';
import {
  METADATA_OPTION,
  pathMapUsage,
  parseReportFormat,
  parseTarget,
  parseTypeKind,
  parseWith,
  savepointInputOptions,
  takeOnePositional,
} from '../parse-cli-values';
import {
  countScanWorkers,
  createParallelValueScanner,
  MAX_SCAN_WORKERS,
  parseKeyGroupRange,
  parseOperatorStateFlag,
  type KeyGroupRange,
  type WorkerCheckInput,
} from '../scan';
import { openNodeInput, readDescriptorSetFile, readJobJar } from '../sources';
import packageJson from '../../../package.json' with { type: 'json' };

export const checkCommand: CliCommand = {
  name: 'check',
  summary: 'check whether the Protobuf state of a savepoint restores with a new schema',
  usage: [
    'Usage: savepoint-inspector check <savepoint folder | _metadata | .zip/.tar/.tar.gz | http(s), s3://, abfss:// / wasbs:// or gs:// URL> (--job-jar <new.jar> | --descriptors <new.binpb>) [options]',
    '',
    'Options:',
    "  --job-jar FILE           the new job's JAR: the exact schema its protoc-generated classes embed (preferred)",
    '  --with FILE              a jar the cluster provides that the job jar needs (e.g. protobuf-java); repeatable',
    "  --descriptors FILE       the new application's FileDescriptorSet (protoc --include_imports --descriptor_set_out, buf build -o);",
    '                           it cannot show an explicit json_name equal to the derived one being added or removed',
    "  --target 0.x|1.x         library line of the new application (default: the jar's bundled flink-datastream-protobuf, else 1.x)",
    '  --max-message-size N     new maxMessageSize (default 67108864)',
    '  --recursion-limit N      new recursionLimit (default 100)',
    '  --deterministic BOOL     new deterministicSerialization (default false)',
    '  --aliasing BOOL          new largePayloadAliasing (default true)',
    '  --root NAME              new root message for every Protobuf state (default: the saved root)',
    '  --root OP/STATE=NAME     new root message for one state (operator id or uid / state name); repeatable',
    "  --java-class NAME        new Java binary class (default: derived from the new descriptor's java options)",
    '  --kind generated|dynamic type kind of the new state type (default: the saved kind)',
    '  --format FORMAT          text (default), json, markdown, html, junit, github or sarif (SARIF 2.1.0)',
    '  --output FILE            write the report to FILE instead of stdout (- is stdout)',
    '  --no-values              do not scan saved values (no value warnings)',
    '  --workers N              worker threads for the value scan of larger savepoints (default 2, at most 64; .tar.gz: 1)',
    '  --values-only            write only the value scan (a shard file for --value-scans) to --output FILE, no report',
    '  --key-groups A-B         with --values-only: scan only these key groups (inclusive) of keyed state',
    '  --operator-state yes|no  with --key-groups: read the operator state in this shard (default: yes for key group 0)',
    '  --value-scans DIR        take the value scan from the shard files in DIR (check --values-only) instead of reading values',
    '  --metadata PATH          which savepoint of an input holding several (its _metadata path in it, or its folder)',
    ...pathMapUsage(27),
    ...CONFIG_USAGE,
    '  -h, --help               show this help',
    '',
    `${CONFIG_FILE_NAME} (found upward from the working directory) sets target, newSettings, root, roots and the warning`,
    'rules to ignore for a repository; flags override it (docs/cli.md).',
    '',
    "Exit codes (by the report's overall verdict; only compatible passes):",
    ...formatExitCodeLines(),
  ].join('\n'),
  formats: REPORT_FORMATS,
  inputs: { positionals: true, options: ['descriptors', 'job-jar', 'with'], limits: { descriptors: MAX_DESCRIPTOR_BYTES } },
  quiet:
    "text: nothing when the verdict is compatible, else its verdict and summary lines; other formats print their whole document; the exit code is the verdict's",
  options: {
    ...METADATA_OPTION,
    descriptors: { type: 'string' },
    'job-jar': { type: 'string' },
    with: { type: 'string', multiple: true },
    target: { type: 'string' },
    'max-message-size': { type: 'string' },
    'recursion-limit': { type: 'string' },
    deterministic: { type: 'string' },
    aliasing: { type: 'string' },
    root: { type: 'string', multiple: true },
    'java-class': { type: 'string' },
    kind: { type: 'string' },
    format: { type: 'string' },
    output: { type: 'string' },
    'no-values': { type: 'boolean' },
    workers: { type: 'string' },
    'values-only': { type: 'boolean' },
    'key-groups': { type: 'string' },
    'operator-state': { type: 'string' },
    'value-scans': { type: 'string' },
    ...CONFIG_OPTIONS,
  },
  run: ({ values, positionals }, io) =>
    withSarifOnFailure(values, io, async () => {
      const savepoint = takeOnePositional(positionals, 'expected a savepoint to check');
      const descriptors = values['descriptors'];
      const jobJarPath = values['job-jar'];
      const withPaths = parseWith(values['with']);
      if (typeof descriptors === 'string' && typeof jobJarPath === 'string') throw new CliUsageError('give either --job-jar or --descriptors, not both');
      if (typeof descriptors !== 'string' && typeof jobJarPath !== 'string')
        throw new CliUsageError('--job-jar <new.jar> or --descriptors <new.binpb> is required');
      if (withPaths.length > 0 && typeof jobJarPath !== 'string') throw new CliUsageError("--with needs --job-jar (it adds jars the job jar's classes need)");
      const format = parseReportFormat(values['format']);
      const shard = parseValueScanShardOptions(values);
      // the repository's config file (savepoint-inspector.yaml): flags override it key by key
      const config = (await resolveCliConfig(values, io, 'check'))?.check;
      const flagRoots = parseRoots(values['root']);
      const newRoot = flagRoots.newRoot ?? config?.root;
      const newRoots = { ...config?.roots, ...flagRoots.newRoots };
      const newSettings = {
        ...config?.newSettings,
        ...optionalInt(values['max-message-size'], '--max-message-size', 'maxMessageSize'),
        ...optionalInt(values['recursion-limit'], '--recursion-limit', 'recursionLimit'),
        ...optionalBool(values['deterministic'], '--deterministic', 'deterministicSerialization'),
        ...optionalBool(values['aliasing'], '--aliasing', 'largePayloadAliasing'),
      };
      const jar = typeof jobJarPath === 'string' ? await readJobJar(jobJarPath, withPaths, 'job-jar', { stringLiterals: true }) : undefined;
      const jarLine = jar?.schema.library?.line;
      const targetGiven = values['target'] ?? config?.target;
      const target = targetGiven === undefined && jarLine !== undefined ? jarLine : parseTarget(targetGiven);
      const bytes = jar ? jar.schema.descriptorSet : await readDescriptorSetFile(descriptors as string);
      const files = await openNodeInput(savepoint, savepointInputOptions(values, io));
      const javaClass = values['java-class'];
      const kind = parseTypeKind(values['kind']);
      const { workers } = optionalInt(values['workers'], '--workers', 'workers');
      if (workers !== undefined && workers > MAX_SCAN_WORKERS) throw new CliUsageError(`--workers must be at most ${MAX_SCAN_WORKERS}, found ${workers}`);
      const check: WorkerCheckInput = {
        descriptorSet: { name: jar ? `${path.basename(jobJarPath as string)} (embedded descriptors)` : path.basename(descriptors as string), bytes },
        ...(jar
          ? {
              jobJar: {
                schema: describeJobJarSchema(jar.schema, { targetFromJar: targetGiven === undefined && jarLine !== undefined }),
                files: jar.files,
                ...(jar.schema.stringLiterals ? { stringLiterals: jar.schema.stringLiterals } : {}),
              },
            }
          : {}),
        savepointName: nameSavepoint(savepoint, values['metadata']),
        tool: { name: 'savepoint-inspector', version: packageJson.version },
        target,
        newSettings,
        ...(newRoot ? { newRoot } : {}),
        newRoots,
        ...(typeof javaClass === 'string' ? { newJavaClass: javaClass } : {}),
        scanValues: values['no-values'] !== true,
        // only the JSON and HTML reports show the schema diff: the other formats do not pay for it
        schemaDiff: formatShowsSchemaDiff(format),
        ...(kind === 'generated' || kind === 'dynamic' ? { newKind: kind } : {}),
      };
      if (shard.valuesOnly) {
        // one key-group shard's value scan, for check --value-scans DIR
        await writeValueScanShard(files, check, shard.keyGroupRange, shard.operatorState, values['output'] as string);
        return EXIT_OK;
      }
      // the value scan of a larger savepoint runs in worker threads, a share of the subtasks each (same report); or it is the shards' (--value-scans)
      const scanWorkers = check.scanValues && shard.valueScans === undefined ? await countScanWorkers(savepoint, workers ?? 2) : 1;
      const checked = await checkSavepoint({
        ...check,
        files,
        valueScanner:
          shard.valueScans !== undefined
            ? createShardFilesValueScanner(shard.valueScans, check)
            : createParallelValueScanner(savepoint, check, { workers: scanWorkers, ...savepointInputOptions(values) }),
      });
      // the config's ignored warning rules: their warnings leave the report (no verdict rests on a warning)
      const report = config === undefined || config.ignore.length === 0 ? checked : withoutWarnings(checked, config.ignore);
      return writeCompatibilityReport(report, format, bytes, { output: values['output'], quiet: values['quiet'] }, io);
    }),
};

/** `--values-only`, `--key-groups`, `--operator-state` and `--value-scans`, checked against each other. */
function parseValueScanShardOptions(values: Record<string, unknown>): {
  valuesOnly: boolean;
  keyGroupRange?: KeyGroupRange;
  operatorState?: boolean;
  valueScans?: string;
} {
  const valuesOnly = values['values-only'] === true;
  const keyGroupRange = parseKeyGroupRange(values['key-groups']);
  const operatorState = parseOperatorStateFlag(values['operator-state']);
  const valueScans = values['value-scans'];
  if (keyGroupRange !== undefined && !valuesOnly)
    throw new CliUsageError("--key-groups needs --values-only (a report covers the whole savepoint: merge the shards' value scans with --value-scans DIR)");
  if (operatorState !== undefined && keyGroupRange === undefined) throw new CliUsageError('--operator-state needs --key-groups A-B');
  if (valuesOnly && (typeof values['output'] !== 'string' || values['output'] === '-')) throw new CliUsageError('--values-only needs --output FILE');
  if (valuesOnly && values['no-values'] === true) throw new CliUsageError('give either --values-only or --no-values, not both');
  if (valueScans !== undefined && (valuesOnly || values['no-values'] === true))
    throw new CliUsageError('--value-scans DIR makes the report from the shards: not with --values-only or --no-values');
  return {
    valuesOnly,
    ...(keyGroupRange ? { keyGroupRange } : {}),
    ...(operatorState === undefined ? {} : { operatorState }),
    ...(typeof valueScans === 'string' ? { valueScans } : {}),
  };
}

/** The report without the warnings of the ignored rules, its warning count recounted. */
function withoutWarnings(report: CompatibilityReport, ignore: readonly string[]): CompatibilityReport {
  const states = report.states.map((s) => ({ ...s, warnings: s.warnings.filter((w) => !ignore.includes(w.ruleId)) }));
  return { ...report, summary: { ...report.summary, warnings: states.reduce((n, s) => n + s.warnings.length, 0) }, states };
}

export function parseRoots(raw: unknown): { newRoot?: string; newRoots: Record<string, string> } {
  const list = Array.isArray(raw) ? raw.map(String) : raw === undefined ? [] : [String(raw)];
  const newRoots: Record<string, string> = {};
  let newRoot: string | undefined;
  for (const item of list) {
    const eq = item.indexOf('=');
    if (eq < 0) {
      if (newRoot !== undefined) throw new CliUsageError(`--root NAME given twice (${newRoot}, ${item}); use --root OP/STATE=NAME per state`);
      newRoot = item;
    } else {
      const key = item.slice(0, eq);
      if (!key.includes('/')) throw new CliUsageError(`--root ${item}: expected OPERATOR/STATE=NAME`);
      newRoots[key] = item.slice(eq + 1);
    }
  }
  return { ...(newRoot ? { newRoot } : {}), newRoots };
}

export function optionalInt<K extends string>(raw: unknown, flag: string, key: K): Partial<Record<K, number>> {
  if (raw === undefined) return {};
  const text = String(raw);
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n <= 0 || n > 2_147_483_647) {
    throw new CliUsageError(`${flag} must be a positive 32-bit integer, found ${text}`);
  }
  return { [key]: n } as Partial<Record<K, number>>;
}

export function optionalBool<K extends string>(raw: unknown, flag: string, key: K): Partial<Record<K, boolean>> {
  if (raw === undefined) return {};
  if (raw !== 'true' && raw !== 'false') throw new CliUsageError(`${flag} must be true or false, found ${String(raw)}`);
  return { [key]: raw === 'true' } as Partial<Record<K, boolean>>;
}

/** The savepoint as the report names it: the input's base name (a URL whole), and the savepoint named in it by --metadata. */
function nameSavepoint(savepoint: string, metadataPath: unknown): string {
  const name = /^https?:\/\//i.test(savepoint) ? savepoint : path.basename(path.resolve(savepoint));
  return typeof metadataPath === 'string' ? `${name}/${metadataPath.replace(/\/?_metadata$/, '').replace(/\/+$/, '')}` : name;
}
