import { describe, expect, it } from 'vitest';
import { colorInspectionText, colorReportText, shouldColor } from './format-color';
import { runCli } from './run-cli';

describe('colour on a terminal only, NO_COLOR and FORCE_COLOR honoured', () => {
  it('decides by the terminal, NO_COLOR, TERM=dumb and FORCE_COLOR', () => {
    expect(shouldColor({ stdoutIsTTY: true, env: {} })).toBe(true);
    expect(shouldColor({ stdoutIsTTY: false, env: {} })).toBe(false);
    expect(shouldColor({ stdoutIsTTY: true, env: { NO_COLOR: '1' } })).toBe(false);
    expect(shouldColor({ stdoutIsTTY: true, env: { NO_COLOR: '' } })).toBe(true);
    expect(shouldColor({ stdoutIsTTY: true, env: { TERM: 'dumb' } })).toBe(false);
    expect(shouldColor({ stdoutIsTTY: false, env: { FORCE_COLOR: '1' } })).toBe(true);
    expect(shouldColor({ stdoutIsTTY: true, env: { FORCE_COLOR: '0' } })).toBe(false);
    expect(shouldColor({ stdoutIsTTY: false, env: { FORCE_COLOR: '', NO_COLOR: '1' } })).toBe(true);
    // in-process, without an environment: never
    expect(shouldColor({ stdoutIsTTY: true })).toBe(false);
  });

  it("paints verdicts, FAIL and WARNING lines, and inspect's status tags and closing line", () => {
    expect(colorReportText('Verdict: NOT RESTORABLE\n[compatible] a\n[INCOMPATIBLE] b\n  FAIL [X] y\n  WARNING [W] z\n')).toBe(
      'Verdict: \u001b[1m\u001b[31mNOT RESTORABLE\u001b[0m\n\u001b[32m[compatible]\u001b[0m a\n\u001b[31m[INCOMPATIBLE]\u001b[0m b\n  \u001b[31mFAIL\u001b[0m [X] y\n  \u001b[33mWARNING\u001b[0m [W] z\n',
    );
    expect(colorReportText('Schema compatibility: compatible\n')).toBe('Schema compatibility: \u001b[1m\u001b[32mcompatible\u001b[0m\n');
    expect(colorInspectionText('- s [partly decoded: x]\n\n3 of 4 states decoded fully\n')).toBe(
      '- s \u001b[33m[partly decoded: x]\u001b[0m\n\n\u001b[1m\u001b[33m3 of 4 states decoded fully\u001b[0m\n',
    );
  });

  it('a terminal gets colour, a pipe (or NO_COLOR) none: the same report otherwise', async () => {
    const CHANGE = 'fixtures/schema-changes/field-type-changed';
    const argv = ['compare', `${CHANGE}/new.binpb`, '--against', `${CHANGE}/old.binpb`, '--root', 'fixtures.change.Order'];
    const runWith = async (io: { stdoutIsTTY: boolean; env: Record<string, string> }) => {
      let stdout = '';
      await runCli(argv, { stdout: (t) => (stdout += t), stderr: () => {}, ...io });
      return stdout;
    };
    const tty = await runWith({ stdoutIsTTY: true, env: {} });
    const piped = await runWith({ stdoutIsTTY: false, env: {} });
    expect(tty).toContain('\u001b[31m');
    expect(piped).not.toContain('\u001b[');
    expect(await runWith({ stdoutIsTTY: true, env: { NO_COLOR: '1' } })).toBe(piped);
    // eslint-disable-next-line no-control-regex
    expect(tty.replace(/\u001b\[\d+m/g, '')).toBe(piped);
  });
});
