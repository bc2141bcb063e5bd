/**
 * `check`/`compare --format sarif` on unusable input (exit 2): the SARIF log still comes out, where the
 * report would have gone (stdout or --output), saying the run failed and why (core/report
 * formatSarifFailure: an unsuccessful invocation with an error notification), so a CI step that uploads
 * the log never uploads an empty or missing file. The error then goes on to the dispatcher unchanged:
 * the same message on stderr, the same exit code. A bug (exit 3) writes no log.
 */
import { classifyError, isDecodeError, isUsageError } from '../../core/io';
import { formatSarifFailure } from '../../core/report';
import { EXIT_BAD_INPUT, type CliIo } from '../cli-types';
import { writeReport } from '../write-report';
import packageJson from '../../../package.json' with { type: 'json' };

/** errno codes of a path the file system refuses: the user's input, as the dispatcher words them */
const PATH_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'expected a file, found a directory',
  ENOTDIR: 'not a directory',
};

export async function withSarifOnFailure(values: Record<string, unknown>, io: CliIo, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (e) {
    if (values['format'] === 'sarif') {
      const failure = describeInputFailure(e);
      if (failure !== undefined) {
        const text = formatSarifFailure({ tool: { name: 'savepoint-inspector', version: packageJson.version }, exitCode: EXIT_BAD_INPUT, ...failure });
        try {
          await writeReport(values['output'], text, io);
        } catch {
          // the log could not be written either: the input's error below is what the user must see first
        }
      }
    }
    throw e;
  }
}

function describeInputFailure(e: unknown): { message: string; code: string; file?: string; offset?: number } | undefined {
  if (isDecodeError(e)) {
    if (classifyError(e) === 'cancelled') return undefined;
    return {
      message: e.message,
      code: e.code,
      ...(e.file === undefined ? {} : { file: e.file }),
      ...(e.file !== undefined && e.offset !== undefined ? { offset: e.offset } : {}),
    };
  }
  if (isUsageError(e)) return { message: e.message, code: e.code };
  const { code, path } = (typeof e === 'object' && e !== null ? e : {}) as { code?: unknown; path?: unknown };
  if (typeof code === 'string' && PATH_ERRORS[code] !== undefined) {
    return {
      message: `${PATH_ERRORS[code]}: ${typeof path === 'string' ? path : 'input'}`,
      code: 'bad-path',
      ...(typeof path === 'string' ? { file: path } : {}),
    };
  }
  return undefined;
}
