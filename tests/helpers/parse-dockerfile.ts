/**
 * The instructions of a Dockerfile (continuation lines joined, comments and blank lines left out) and the
 * value of its ARG defaults, for tests that check the recipe's rules and run its steps without a container
 * engine (tests/ci/dockerfile.test.ts, tests/cli-bundle/npm-package.test.ts).
 */
export interface DockerInstruction {
  keyword: string;
  args: string;
}

export function parseDockerfile(text: string): DockerInstruction[] {
  const out: DockerInstruction[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    const whole = `${pending}${line}`.trim();
    pending = '';
    const space = whole.indexOf(' ');
    out.push({ keyword: whole.slice(0, space).toUpperCase(), args: whole.slice(space + 1).trim() });
  }
  return out;
}

/** `${NAME}` replaced by each ARG's default */
export function expandArgs(instructions: readonly DockerInstruction[], text: string): string {
  const defaults = new Map(instructions.filter((i) => i.keyword === 'ARG').map((i) => i.args.split('=') as [string, string]));
  return text.replace(/\$\{(\w+)\}/g, (whole, name: string) => defaults.get(name) ?? whole);
}
