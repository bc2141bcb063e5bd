#!/usr/bin/env node
// The GitHub Action's step (action.yml): runs `savepoint-inspector check` once with --format sarif into the
// SARIF file, turns the log into GitHub annotations (on the .proto line when the descriptor set has source
// info) and a job summary, writes the step outputs, and, when `format` asks for a report of another format,
// writes it with a second run. Exits with check's exit code: 0 compatible, 1 incompatible or not checked,
// 2 unusable input, 3 a bug. Node alone, no dependencies: it reads what a workflow passes, as environment
// variables (action.yml maps each input to INPUT_<NAME>; GITHUB_OUTPUT and GITHUB_STEP_SUMMARY are the
// runner's files), so a test runs it as a workflow would.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const FORMATS = ['text', 'json', 'markdown', 'html', 'junit', 'github'];
const EXTENSIONS = { text: 'txt', json: 'json', markdown: 'md', html: 'html', junit: 'xml', github: 'txt' };

/** GitHub's workflow-command escaping (the runner's toCommandValue/toCommandProperties rules). */
export function escapeData(text) {
  return String(text).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
export function escapeProperty(text) {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** The annotation lines of a SARIF log: one per result of level error or warning, one per notification of a failed run. */
export function annotationsOf(log) {
  const lines = [];
  for (const run of log.runs ?? []) {
    for (const invocation of run.invocations ?? []) {
      for (const note of invocation.toolExecutionNotifications ?? []) {
        const uri = note.locations?.[0]?.physicalLocation?.artifactLocation?.uri;
        const props = [
          ...(uri ? [`file=${escapeProperty(decodeURIComponent(uri))}`] : []),
          `title=${escapeProperty(`savepoint-inspector: ${note.descriptor?.id ?? 'error'}`)}`,
        ];
        lines.push(`::${note.level === 'warning' ? 'warning' : 'error'} ${props.join(',')}::${escapeData(note.message?.text ?? '')}`);
      }
    }
    for (const result of run.results ?? []) {
      if (result.level !== 'error' && result.level !== 'warning') continue;
      const physical = result.locations?.[0]?.physicalLocation;
      const region = physical?.region;
      const props = [];
      if (physical?.artifactLocation?.uri) {
        props.push(`file=${escapeProperty(decodeURIComponent(physical.artifactLocation.uri))}`);
      }
      if (region?.startLine !== undefined) {
        props.push(`line=${region.startLine}`, `endLine=${region.endLine ?? region.startLine}`);
        if (region.startColumn !== undefined) props.push(`col=${region.startColumn}`);
      }
      props.push(`title=${escapeProperty(result.ruleId)}`);
      lines.push(`::${result.level} ${props.join(',')}::${escapeData(result.message?.text ?? '')}`);
    }
  }
  return lines;
}

/** The job summary (Markdown) of a SARIF log. */
export function summaryOf(log, exitCode) {
  const run = log.runs?.[0] ?? {};
  const failed = (run.invocations ?? []).find((i) => i.executionSuccessful === false);
  if (failed) {
    const reasons = (failed.toolExecutionNotifications ?? []).map((n) => `- ${n.message?.text ?? ''}`);
    return ['### Savepoint Inspector: the input could not be checked', '', ...reasons, '', `Exit code ${exitCode}.`, ''].join('\n');
  }
  const p = run.properties ?? {};
  const s = p.summary ?? {};
  const counts = Object.entries(s)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const failing = (run.results ?? []).filter((r) => r.level === 'error').length;
  const warnings = (run.results ?? []).filter((r) => r.level === 'warning').length;
  return [
    `### Savepoint Inspector: ${p.verdict ?? 'unknown'} (target ${p.target ?? '?'})`,
    '',
    counts,
    '',
    `${failing} error(s), ${warnings} warning(s). Exit code ${exitCode}.`,
    '',
  ].join('\n');
}

/**
 * With a proto root, the SARIF log's .proto locations (named relative to the import root in the descriptor set)
 * made relative to the repository, which annotations and code scanning need.
 */
export function rebaseProtoLocations(log, protoRoot) {
  if (!protoRoot) return log;
  for (const run of log.runs ?? []) {
    for (const result of run.results ?? []) {
      for (const location of result.locations ?? []) {
        const physical = location.physicalLocation;
        if (physical?.region?.startLine !== undefined && physical.artifactLocation?.uri)
          physical.artifactLocation.uri = path.posix.join(protoRoot.split(path.sep).join('/'), physical.artifactLocation.uri);
      }
    }
  }
  return log;
}

function input(env, name) {
  return (env[`INPUT_${name}`] ?? '').trim();
}

/** The `check` arguments the inputs ask for (the format and output are added per run). */
export function checkArguments(env) {
  const args = ['check', input(env, 'SAVEPOINT')];
  const jar = input(env, 'JOB_JAR');
  const descriptors = input(env, 'DESCRIPTORS');
  // both or neither: passed as given, so check says what is wrong (exit 2, and the SARIF log says it too)
  if (jar) args.push('--job-jar', jar);
  if (descriptors) args.push('--descriptors', descriptors);
  const target = input(env, 'TARGET');
  if (target) args.push('--target', target);
  // further options, one per line (e.g. `--root` then `fixtures.Event`)
  for (const line of input(env, 'ARGS').split('\n')) if (line.trim()) args.push(line.trim());
  return args;
}

export function runAction(env = process.env, write = (t) => process.stdout.write(t)) {
  const cli = input(env, 'CLI').split(/\s+/).filter(Boolean);
  if (cli.length === 0) throw new Error('INPUT_CLI is empty: the command that runs savepoint-inspector (action.yml sets it)');
  if (!input(env, 'SAVEPOINT')) {
    write('::error title=savepoint-inspector::the savepoint input is required (a path or an http(s) URL)\n');
    return 2;
  }
  const format = input(env, 'FORMAT');
  if (format && !FORMATS.includes(format)) {
    write(`::error title=savepoint-inspector::format must be one of ${FORMATS.join(', ')} (SARIF is always written), found ${format}\n`);
    return 2;
  }
  const workspace = env.GITHUB_WORKSPACE || process.cwd();
  const sarifFile = path.resolve(workspace, input(env, 'SARIF_FILE') || 'savepoint-inspector.sarif');
  const run = (extra) =>
    spawnSync(cli[0], [...cli.slice(1), ...checkArguments(env), ...extra], { cwd: workspace, env, stdio: ['ignore', 'inherit', 'inherit'] });
  // a log left by an earlier run must not pass for this one's
  rmSync(sarifFile, { force: true });
  const checked = run(['--format', 'sarif', '--output', sarifFile]);
  if (checked.error) throw checked.error;
  const exitCode = checked.status ?? 3;
  const outputs = { 'exit-code': String(exitCode) };
  const protoRoot = input(env, 'PROTO_ROOT');
  if (existsSync(sarifFile)) {
    const log = JSON.parse(readFileSync(sarifFile, 'utf8'));
    if (protoRoot) {
      rebaseProtoLocations(log, protoRoot);
      // rewritten in place: the uploaded log points at the repository's files
      writeFileSync(sarifFile, `${JSON.stringify(log, null, 2)}\n`);
    }
    outputs['sarif-file'] = sarifFile;
    outputs.verdict = log.runs?.[0]?.properties?.verdict ?? (log.runs?.[0]?.invocations?.[0]?.executionSuccessful === false ? 'error' : 'unknown');
    if (input(env, 'ANNOTATIONS') !== 'false') for (const line of annotationsOf(log)) write(`${line}\n`);
    if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, summaryOf(log, exitCode));
  } else {
    outputs.verdict = 'error';
  }
  if (format && exitCode !== 2) {
    const reportFile = path.resolve(workspace, input(env, 'REPORT_FILE') || `savepoint-inspector-report.${EXTENSIONS[format]}`);
    const reported = run(['--format', format, '--output', reportFile]);
    if (reported.error) throw reported.error;
    outputs['report-file'] = reportFile;
    if (format === 'markdown' && env.GITHUB_STEP_SUMMARY && existsSync(reportFile))
      appendFileSync(env.GITHUB_STEP_SUMMARY, `\n${readFileSync(reportFile, 'utf8')}`);
  }
  if (env.GITHUB_OUTPUT)
    appendFileSync(
      env.GITHUB_OUTPUT,
      Object.entries(outputs)
        .map(([k, v]) => `${k}=${v}\n`)
        .join(''),
    );
  return exitCode;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exit(runAction());
