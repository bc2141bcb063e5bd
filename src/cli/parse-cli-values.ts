/**
 * The argument checks the commands share: exactly one positional input, and the values of
 * `--target`, `--format`, `--kind` and `--with` (check and compare), each a CliUsageError naming what it found.
 */
import type { LibraryLine, TypeKind } from '../core/compat';
import { REPORT_FORMATS, type ReportFormat } from '../core/report';
import { CliUsageError } from './cli-types';

/** The one positional argument; `missing` is the message without one, `one` what one is ("one savepoint"). */
export function takeOnePositional(positionals: readonly string[], missing: string, one = 'one savepoint'): string {
  if (positionals.length !== 1) throw new CliUsageError(positionals.length === 0 ? missing : `expected ${one}, found ${positionals.length} arguments`);
  return positionals[0]!;
}

/** `--target 0.x|1.x`, default 1.x. */
export function parseTarget(raw: unknown): LibraryLine {
  const target = raw ?? '1.x';
  if (target !== '0.x' && target !== '1.x') throw new CliUsageError(`--target must be 0.x or 1.x, found ${String(target)}`);
  return target;
}

/** `--format`, one of the report formats, default text. */
export function parseReportFormat(raw: unknown): ReportFormat {
  const format = String(raw ?? 'text');
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) throw new CliUsageError(`--format must be one of ${REPORT_FORMATS.join(', ')}, found ${format}`);
  return format as ReportFormat;
}

/** `--kind generated|dynamic`; undefined when not given. */
export function parseTypeKind(raw: unknown): TypeKind | undefined {
  if (raw !== undefined && raw !== 'generated' && raw !== 'dynamic') throw new CliUsageError(`--kind must be generated or dynamic, found ${String(raw)}`);
  return raw;
}

/** `--with FILE`, repeatable. */
export function parseWith(raw: unknown): string[] {
  return Array.isArray(raw) ? raw.map(String) : raw === undefined ? [] : [String(raw)];
}

/**
 * `--metadata PATH` and `--path-map FROM=TO` (repeatable), which every command reading a savepoint takes: the
 * `_metadata` to read of an input that holds several, and where the files absolute handles name are now.
 */
export const METADATA_OPTION = { metadata: { type: 'string' }, 'path-map': { type: 'string', multiple: true } } as const;

/** The help lines of `--path-map`, indented to `column` (where the other options' descriptions start). */
export function pathMapUsage(column: number): string[] {
  const flag = '  --path-map FROM=TO';
  const pad = ' '.repeat(column);
  const text = ['read the files absolute handles name under FROM at TO instead', '(repeatable; e.g. s3://old-bucket/ckpt/=file:///mnt/copy/ or the reverse)'];
  if (flag.length < column) return [`${flag.padEnd(column, ' ')}${text[0]}`, `${pad}${text[1]}`];
  return [flag, ...text.map((t) => `${pad}${t}`)];
}

/** openNodeInput's options from `--metadata` and `--path-map`; with `io`, what an object store is reached with and chose goes to stderr. */
export function savepointInputOptions(
  values: Record<string, unknown>,
  io?: { stderr(text: string): void },
): { metadataPath?: string; pathMap?: string[]; notice?: (line: string) => void } {
  const raw = values['metadata'];
  if (raw !== undefined && (typeof raw !== 'string' || raw === '')) throw new CliUsageError('--metadata expects a path inside the savepoint input');
  const maps = values['path-map'];
  const pathMap = Array.isArray(maps) ? maps.map(String) : maps === undefined ? [] : [String(maps)];
  for (const m of pathMap)
    if (!/^[^=]+=.+$/.test(m))
      throw new CliUsageError(`--path-map expects FROM=TO (e.g. s3://old-bucket/ckpt/=file:///mnt/copy/), found ${m === '' ? 'nothing' : m}`);
  return {
    ...(raw === undefined ? {} : { metadataPath: raw as string }),
    ...(pathMap.length > 0 ? { pathMap } : {}),
    ...(io ? { notice: (line: string) => io.stderr(`${line}\n`) } : {}),
  };
}

/** The formats of a command that prints a text or a JSON document (`--format text|json`, default text). */
export const TEXT_OR_JSON = ['text', 'json'] as const;

/** `--format`, one of `formats` (the first is the default). */
export function parseFormat<F extends string>(raw: unknown, formats: readonly F[]): F {
  const format = String(raw ?? formats[0]);
  if (!(formats as readonly string[]).includes(format))
    throw new CliUsageError(`--format must be ${formats.length === 2 ? `${formats[0]} or ${formats[1]}` : `one of ${formats.join(', ')}`}, found ${format}`);
  return format as F;
}

/** The version of every JSON document the CLI prints, its first key `schemaVersion` (docs/report-schema.md). */
export const JSON_SCHEMA_VERSION = 1;

/** A JSON document as every command prints it: `{ "schemaVersion": 1, … }`, two-space indented, one newline. */
export function formatJsonDocument(body: Record<string, unknown>): string {
  return `${JSON.stringify({ schemaVersion: JSON_SCHEMA_VERSION, ...body }, null, 2)}\n`;
}
