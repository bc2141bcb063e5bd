/**
 * Colour on a terminal: the text reports of `check` and `compare` (verdict, each state's verdict, FAIL and
 * WARNING lines) and `inspect` (its status tags and closing line) are painted with ANSI SGR codes when stdout is
 * a terminal. Never when it is not (a pipe, a file, `--output FILE`), nor with `NO_COLOR` set to anything but
 * the empty string (no-color.org), nor on `TERM=dumb`; `FORCE_COLOR` (1, 2, 3 or empty) forces it on, even
 * piped, and `FORCE_COLOR=0` off — as Node's own `FORCE_COLOR` does, it wins over `NO_COLOR`.
 */
import type { CliIo } from './cli-types';

const RESET = '\u001b[0m';
const PAINT = { red: '\u001b[31m', green: '\u001b[32m', yellow: '\u001b[33m', dim: '\u001b[2m', bold: '\u001b[1m' } as const;
type Paint = keyof typeof PAINT;

/** Whether the command's stdout gets colour (see the module comment). */
export function shouldColor(io: Pick<CliIo, 'env' | 'stdoutIsTTY'>): boolean {
  // in-process callers (tests, the digests script) give no environment: no colour, whatever the process has
  const env = io.env;
  if (env === undefined) return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  if (env['TERM'] === 'dumb') return false;
  return io.stdoutIsTTY === true;
}

const paint = (text: string, ...how: Paint[]) => `${how.map((h) => PAINT[h]).join('')}${text}${RESET}`;

/** A verdict's colour: compatible green, unknown or not checked dim yellow, the rest (failing) red. */
function verdictPaint(label: string): Paint[] {
  if (label.startsWith('compatible')) return ['green'];
  if (label.startsWith('not checked')) return ['dim'];
  if (label.startsWith('unknown')) return ['yellow'];
  return ['red'];
}

/** The text report (check, compare) painted line by line. */
export function colorReportText(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const head = /^(Verdict|Savepoint compatibility|Schema compatibility): (.*)$/.exec(line);
      if (head) return `${head[1]}: ${paint(head[2]!, 'bold', ...verdictPaint(head[2]!.startsWith('compatible') ? 'compatible' : 'x'))}`;
      const state = /^\[([^\]]+)\](.*)$/.exec(line);
      if (state) return `${paint(`[${state[1]!}]`, ...verdictPaint(state[1]!))}${state[2]!}`;
      if (/^ {2}FAIL \[/.test(line)) return `  ${paint('FAIL', 'red')}${line.slice(6)}`;
      if (/^ {2}(WARNING|VALUES NOT READ)/.test(line)) return line.replace(/^ {2}(WARNING|VALUES NOT READ)/, (_, w: string) => `  ${paint(w, 'yellow')}`);
      return line;
    })
    .join('\n');
}

/** `inspect`'s text painted: status tags (partly decoded, not read) and the closing line. */
export function colorInspectionText(text: string): string {
  const lines = text.split('\n');
  const last = lines.length >= 2 && lines[lines.length - 1] === '' ? lines.length - 2 : lines.length - 1;
  return lines
    .map((line, i) => {
      if (i === last) {
        const all = /^(\d+) of \1 states decoded fully$/.test(line);
        return paint(line, 'bold', all || line.endsWith('(--headers-only)') ? 'green' : 'yellow');
      }
      return line.replace(/\[(partly decoded|not read|incomplete)([^\]]*)\]/g, (m) => paint(m, 'yellow'));
    })
    .join('\n');
}
