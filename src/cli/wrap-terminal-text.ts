/**
 * The text reports of `check` and `compare` on a terminal: a line wider than the terminal is broken at spaces
 * into lines that fit, each continuation indented four columns past the line's own indentation, so a finding's
 * reason reads as one paragraph under its state instead of a 500-column line the terminal folds mid-word. A
 * word longer than the room (a class name, a path, a digest) keeps its own line whole. Only on a terminal with
 * a known width (CliIo.stdoutColumns): piped, into a file, in-process, the report keeps one line per item, as
 * grep, diff and the digests want it.
 */

/** The narrowest width wrapped to: below it a terminal's folding reads better than a column of words. */
const MIN_COLUMNS = 40;
const CONTINUATION_INDENT = 4;

export function wrapTerminalText(text: string, columns: number | undefined): string {
  if (columns === undefined || !Number.isFinite(columns) || columns < MIN_COLUMNS) return text;
  return text
    .split('\n')
    .map((line) => (line.length <= columns ? line : wrapLine(line, columns)))
    .join('\n');
}

function wrapLine(line: string, columns: number): string {
  const indent = /^ */.exec(line)![0].length;
  const continuation = ' '.repeat(Math.min(indent + CONTINUATION_INDENT, Math.floor(columns / 2)));
  const words = line.slice(indent).split(' ');
  const out: string[] = [];
  let current = line.slice(0, indent);
  let empty = true;
  for (const word of words) {
    if (!empty && current.length + 1 + word.length > columns) {
      out.push(current);
      current = continuation + word;
      continue;
    }
    current += empty ? word : ` ${word}`;
    empty = false;
  }
  out.push(current);
  return out.join('\n');
}
