/**
 * `compare <new.binpb> --against <old.binpb> --root NAME [--root OLD=NEW …] [--target 0.x|1.x]
 * [--kind generated|dynamic] [--format …] [--output FILE]`: the evaluator on two descriptor sets
 * (no savepoint), as `buf breaking new.binpb --against old.binpb` takes them: would state of each
 * root message, saved by the old application, restore in the new one. Exit codes as `check`.
 */
import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { compareDescriptorSets, REPORT_FORMATS, describeJobJarSchema, formatExitCodeLines, formatShowsSchemaDiff } from '../../core/report';
import { withSarifOnFailure } from './sarif-on-failure';
import { CliUsageError, type CliCommand } from '../cli-types';
import { writeCompatibilityReport } from '../write-report';
import { looksLikeJar, readDescriptorSetFile, readJobJar } from '../sources';
import { parseReportFormat, parseTarget, parseTypeKind, parseWith, takeOnePositional } from '../parse-cli-values';
import packageJson from '../../../package.json' with { type: 'json' };

export const compareCommand: CliCommand = {
  name: 'compare',
  summary: 'check a new descriptor set against the old one, per state root message (no savepoint needed)',
  usage: [
    'Usage: savepoint-inspector compare (<new.binpb> | --job-jar <new.jar>) --against <old.binpb | old.jar> --root NAME [options]',
    '',
    'Would state saved by the old application restore in the new one? The rules of `check`, on the',
    "old application's descriptor set instead of a savepoint's saved schema (both with the library's",
    'default reader settings).',
    '',
    'Options:',
    "  --job-jar FILE           the new job's JAR (instead of a new descriptor set): the exact descriptors its generated classes embed",
    '  --with FILE              a jar the cluster provides that the job jars need (e.g. protobuf-java); repeatable',
    "  --against FILE           the old application's FileDescriptorSet (protoc --include_imports --descriptor_set_out, buf build -o),",
    '                           or its job jar (two jars compare every json_name exactly)',
    '  --root NAME              root message of a state type, e.g. com.example.Event; repeatable, one report entry each',
    '  --root OLD=NEW           a root message renamed in the new set',
    "  --target 0.x|1.x         library line of both applications (default: the new jar's bundled flink-datastream-protobuf, else 1.x)",
    '  --kind generated|dynamic type kind of the state (default generated: Java classes derived from the java options)',
    '  --format FORMAT          text (default), json, markdown, html, junit, github or sarif (SARIF 2.1.0)',
    '  --output FILE            write the report to FILE instead of stdout (- is stdout)',
    '  -h, --help               show this help',
    '',
    "Exit codes (by the report's overall verdict; only compatible passes):",
    ...formatExitCodeLines(),
  ].join('\n'),
  formats: REPORT_FORMATS,
  inputs: { positionals: true, options: ['against', 'job-jar', 'with'] },
  quiet:
    "text: nothing when the verdict is compatible, else its verdict and summary lines; other formats print their whole document; the exit code is the verdict's",
  options: {
    against: { type: 'string' },
    'job-jar': { type: 'string' },
    with: { type: 'string', multiple: true },
    root: { type: 'string', multiple: true },
    target: { type: 'string' },
    kind: { type: 'string' },
    format: { type: 'string' },
    output: { type: 'string' },
  },
  run: ({ values, positionals }, io) =>
    withSarifOnFailure(values, io, async () => {
      const jobJarPath = values['job-jar'];
      const withPaths = parseWith(values['with']);
      if (typeof jobJarPath === 'string' && positionals.length > 0)
        throw new CliUsageError(`expected either a new descriptor set or --job-jar, found both (${positionals.join(', ')})`);
      const newPath =
        typeof jobJarPath === 'string'
          ? jobJarPath
          : takeOnePositional(positionals, 'expected the new descriptor set (or --job-jar <new.jar>)', 'one new descriptor set');
      const against = values['against'];
      if (typeof against !== 'string') throw new CliUsageError('--against <old.binpb | old.jar> is required');
      const roots = parseRoots(values['root']);
      const explicitTarget = parseTarget(values['target']);
      const kind = parseTypeKind(values['kind']) ?? 'generated';
      const format = parseReportFormat(values['format']);
      const againstIsJar = looksLikeJar(await readHead(against));
      if (!againstIsJar && typeof jobJarPath !== 'string' && withPaths.length > 0)
        throw new CliUsageError('--with needs a job jar (--job-jar or a jar as --against)');
      const savedJar = againstIsJar ? await readJobJar(against, withPaths, 'saved-job-jar') : undefined;
      const newJar = typeof jobJarPath === 'string' ? await readJobJar(jobJarPath, withPaths) : undefined;
      const savedBytes = savedJar ? savedJar.schema.descriptorSet : await readDescriptorSetFile(against);
      const newBytes = newJar ? newJar.schema.descriptorSet : await readDescriptorSetFile(newPath);
      // the new job jar's bundled flink-datastream-protobuf line is the target unless --target says otherwise
      const jarLine = values['target'] === undefined ? newJar?.schema.library?.line : undefined;
      const target = jarLine ?? explicitTarget;
      const report = compareDescriptorSets({
        // node:crypto's SHA-256 (the core's portable one costs ~10 ms per 200 KB before it is compiled)
        saved: {
          name: path.basename(against),
          bytes: savedBytes,
          sha256: createHash('sha256').update(savedBytes).digest('hex'),
          ...(savedJar ? { jar: { files: savedJar.files, schema: describeJobJarSchema(savedJar.schema, { targetFromJar: false }) } } : {}),
        },
        next: {
          name: path.basename(newPath),
          bytes: newBytes,
          sha256: createHash('sha256').update(newBytes).digest('hex'),
          ...(newJar ? { jar: { files: newJar.files, schema: describeJobJarSchema(newJar.schema, { targetFromJar: jarLine !== undefined }) } } : {}),
        },
        roots,
        tool: { name: 'savepoint-inspector', version: packageJson.version },
        target,
        kind,
        // only the JSON and HTML reports show the schema diff: the other formats do not pay for it
        schemaDiff: formatShowsSchemaDiff(format),
      });
      return writeCompatibilityReport(report, format, newBytes, { output: values['output'], quiet: values['quiet'] }, io);
    }),
};

/** `--root NAME` or `--root OLD=NEW`, repeatable; a leading dot (descriptor type-name style) is dropped. */
function parseRoots(raw: unknown): { savedRoot: string; newRoot?: string }[] {
  const list = Array.isArray(raw) ? raw.map(String) : raw === undefined ? [] : [String(raw)];
  if (list.length === 0) throw new CliUsageError('--root NAME is required: the root message of the state type to compare (repeatable)');
  const seen = new Set<string>();
  return list.map((item) => {
    const [saved, renamed, ...extra] = item.split('=');
    const savedRoot = stripDot(saved!);
    const newRoot = renamed === undefined ? undefined : stripDot(renamed);
    if (extra.length > 0 || savedRoot === '' || newRoot === '') throw new CliUsageError(`--root ${item}: expected NAME or OLD=NEW`);
    if (seen.has(savedRoot)) throw new CliUsageError(`--root ${savedRoot} given twice`);
    seen.add(savedRoot);
    return newRoot === undefined || newRoot === savedRoot ? { savedRoot } : { savedRoot, newRoot };
  });
}

function stripDot(name: string): string {
  return name.startsWith('.') ? name.slice(1) : name;
}

/**
 * The first bytes of a file (a jar or a descriptor set?); a missing file, or one that is not a regular file,
 * fails in the reader that follows, which names it (opening a FIFO here would wait for a writer forever).
 */
async function readHead(file: string): Promise<Uint8Array> {
  try {
    if (!(await stat(file)).isFile()) return new Uint8Array(0);
    const handle = await open(file, 'r');
    try {
      const head = new Uint8Array(4);
      const { bytesRead } = await handle.read(head, 0, 4, 0);
      return head.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return new Uint8Array(0);
  }
}
