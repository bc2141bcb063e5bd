/**
 * `completion bash|zsh|fish`: the bash script, sourced in a real bash, completes commands, options and option
 * values from the command table (COMP_WORDS/COMP_CWORD set as bash's completion would, the function called).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli';
import { COMMANDS } from '.';

async function script(shell: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['completion', shell], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

/** What the bash script offers for the command line `words` (the last one being completed). */
function completeInBash(bashScript: string, words: string[]): string[] {
  const quoted = words.map((w) => `'${w}'`).join(' ');
  const program = `${bashScript}\nCOMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _savepoint_inspector; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['--norc', '--noprofile', '-c', program], { encoding: 'utf8', cwd: '/' })
    .split('\n')
    .filter((l) => l !== '');
}

describe('completion', () => {
  it('bash: completes ch<TAB> to check, an option of check, and the values of --format and --target', async () => {
    const bash = await script('bash');
    expect([bash.code, bash.stderr]).toEqual([0, '']);
    expect(completeInBash(bash.stdout, ['savepoint-inspector', 'ch'])).toEqual(['check']);
    expect(completeInBash(bash.stdout, ['savepoint-inspector', 'check', 'sp', '--fo'])).toEqual(['--format']);
    expect(completeInBash(bash.stdout, ['savepoint-inspector', 'check', 'sp', '--format', 'j'])).toEqual(['json', 'junit']);
    expect(completeInBash(bash.stdout, ['savepoint-inspector', 'check', 'sp', '--target', ''])).toEqual(['0.x', '1.x']);
    expect(completeInBash(bash.stdout, ['savepoint-inspector', 'stats', '--q'])).toEqual(['--quiet']);
    expect(completeInBash(bash.stdout, ['savepoint-inspector', 'export', '--format', ''])).toEqual(['jsonl', 'csv', 'parquet', 'arrow']);
    expect(completeInBash(bash.stdout, ['savepoint-inspector', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(completeInBash(bash.stdout, ['savepoint-inspector', 'help', 'mi'])).toEqual(['migration-plan', 'migration-job']);
    // every command of the table, and every option of each
    expect(completeInBash(bash.stdout, ['savepoint-inspector', ''])).toEqual(expect.arrayContaining(COMMANDS.map((c) => c.name)));
    for (const c of COMMANDS)
      expect(completeInBash(bash.stdout, ['savepoint-inspector', c.name, '--']).sort()).toEqual(
        [...Object.keys(c.options), 'help', 'quiet'].map((o) => `--${o}`).sort(),
      );
  });

  it('zsh loads the bash script through bashcompinit; fish gets one line per command and option', async () => {
    const zsh = await script('zsh');
    expect(zsh.stdout.startsWith('#compdef savepoint-inspector\n')).toBe(true);
    expect(zsh.stdout).toContain('bashcompinit');
    expect(zsh.stdout).toContain('complete -o filenames -F _savepoint_inspector savepoint-inspector');
    const fish = (await script('fish')).stdout;
    expect(fish).toContain(
      "complete -c savepoint-inspector -n '__fish_use_subcommand' -a check -d 'check whether the Protobuf state of a savepoint restores with a new schema'",
    );
    expect(fish).toContain(
      "complete -c savepoint-inspector -n '__fish_seen_subcommand_from check' -l format -x -a 'text json markdown html junit github sarif'",
    );
    expect(fish).toContain("complete -c savepoint-inspector -n '__fish_seen_subcommand_from dump' -l quiet -s q");
  });

  it('any other shell is a usage error, exit 2', async () => {
    const r = await script('powershell');
    expect(r.code).toBe(2);
    expect(r.stderr.startsWith('savepoint-inspector completion: expected one shell: bash, zsh or fish, found powershell\n')).toBe(true);
  });
});
