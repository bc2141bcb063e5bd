/** A dropped job jar as the new schema in the app's worker: the same report as `check --job-jar <jar> --target 0.x`, byte for byte. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli';
import { LocalInspector } from './local-inspector';
import { isJobJarName } from './read-new-schema';

const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint');
const JAR = path.resolve(process.cwd(), 'fixtures/job-jars/jars/added-field-4.36.2.jar');

describe('a dropped job jar as the new schema', () => {
  it('is told by its suffix', () => {
    expect([isJobJarName('job/app-1.0.JAR'), isJobJarName('new.binpb')]).toEqual([true, false]);
  });

  it('gives the report of check --job-jar (JSON and Markdown byte for byte), with what the jar tells', async () => {
    const files = readdirSync(SAVEPOINT).map((n) => ({ path: `savepoint/${n}`, blob: new Blob([readFileSync(path.join(SAVEPOINT, n))]) }));
    files.push({ path: 'added-field-4.36.2.jar', blob: new Blob([readFileSync(JAR)]) });
    const inspector = new LocalInspector();
    const opened = await inspector.open({ kind: 'files', files });
    expect(opened.descriptorSetName).toBe('added-field-4.36.2.jar');
    const report = await inspector.check({ target: '0.x', newSettings: {} });
    expect(report.newSchema?.jobJar?.messages.find((m) => m.fullName === 'fixtures.events.Event')?.javaClass).toBe(
      'dev.savepointinspector.fixtures.generated.EventMessages$Event',
    );
    expect(report.states.find((s) => s.state === 'last-event')?.firstIncompatibility?.ruleId).toBe('EXACT_SCHEMA_CHANGED');
    for (const format of ['json', 'markdown'] as const) {
      let cli = '';
      const code = await runCli(['check', SAVEPOINT, '--job-jar', JAR, '--target', '0.x', '--format', format], {
        stdout: (t) => (cli += t),
        stderr: () => undefined,
      });
      expect(code).toBe(1);
      expect(await inspector.formatReport({ target: '0.x', newSettings: {} }, format)).toBe(cli);
    }
  });
});
