/**
 * Figures 5 and 6 over one 1 GiB savepoint (bench/generate with gencodeDescriptors, 8 subtasks):
 * 5 opens its STORED zip in the app in headless Chromium; 6 reads the folder with Flink's State
 * Processor API and with our CLI. Each figure is skipped with its reason when its tool is absent
 * (a Chromium: the system's or @sparticuz/chromium's, as e2e/find-chromium.ts finds it; java or the
 * built reader job). Returns the figures, environment lines and notes.
 */
import { spawnSync } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { ensureBenchSavepoint, BENCH_STATES } from './generate/generate-bench-savepoint';
import {
  buildBenchApp,
  chromiumVersion,
  findBenchChromium,
  formatBrowserScanFigures,
  runBrowserScan,
  skippedBrowserScanFigure,
  timeCliStats,
} from './figure-browser-scan';
import { buildCliBundle } from './build-cli-bundle';
import { findStateProcessorReader, measureStateProcessor, skippedStateProcessorFigure } from './figure-state-processor';
import { zipSavepointStored } from './zip-savepoint-stored';
import { fmtBytes, GiB, type Figure } from './measure';

export interface FiguresFiveAndSix {
  figures: Figure[];
  environment: string[];
  notes: string[];
}

export async function measureFiguresFiveAndSix(root: string, log: (s: string) => void, keep: boolean): Promise<FiguresFiveAndSix> {
  const dir = path.join(root, 'sp-1g');
  const zip = path.join(root, 'sp-1g.zip');
  const reader = findStateProcessorReader();
  const figures: Figure[] = [];
  const environment: string[] = [];
  const browser = findBenchChromium();
  if ('skip' in browser && 'skip' in reader) {
    log(`figure 5 skipped: ${browser.skip}; figure 6 skipped: ${reader.skip}`);
    return { figures: [skippedBrowserScanFigure(browser.skip), skippedStateProcessorFigure(reader.skip)], environment, notes: [] };
  }
  const manifest = ensureBenchSavepoint({ dir, targetBytes: GiB, parallelism: 8, gencodeDescriptors: true });
  try {
    if (!('skip' in browser)) {
      log(`figure 5: 1 GiB zip scanned in the app (headless ${browser.description}) …`);
      zipSavepointStored(dir, zip);
      buildBenchApp();
      buildCliBundle();
      const run = await runBrowserScan(zip, manifest.operatorId, BENCH_STATES[0], browser);
      const cli = timeCliStats(zip);
      const values = manifest.keys; // the first state holds one value per key
      figures.push(...formatBrowserScanFigures(run, manifest.totalBytes, values, BENCH_STATES[0], cli));
      environment.push(
        `${chromiumVersion(browser)} (${browser.description}; headless, driven by @playwright/test 1.65.1), app built with vite build; zip ${fmtBytes(statSync(zip).size)}, STORED entries`,
      );
    } else {
      log(`figure 5 skipped: ${browser.skip}`);
      figures.push(skippedBrowserScanFigure(browser.skip));
    }
    if ('skip' in reader) {
      log(`figure 6 skipped: ${reader.skip}`);
      figures.push(skippedStateProcessorFigure(reader.skip));
    } else {
      log('figure 6: Flink State Processor API vs our CLI …');
      figures.push(...measureStateProcessor(dir, manifest, reader.classpath));
      const java = spawnSync('java', ['-version'], { encoding: 'utf8' }).stderr.split('\n')[0] ?? 'java';
      environment.push(`Flink 2.3.0 State Processor API (HashMapStateBackend, parallelism 2, -Xmx8g), ${java}`);
    }
  } finally {
    rmSync(zip, { force: true });
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
  const notes = [
    `Figures 5 and 6 use one ${fmtBytes(manifest.totalBytes)} savepoint (8 state files, ${manifest.entries} values) whose snapshot carries the descriptors as protoc's Java gencode embeds them (no buf image extension, no derived json_name), so Flink's 0.x serializer restores it. Figure 5 zips it with STORED entries (state files of binary Protobuf values barely compress), opens the zip through the app's file input, waits for the inspection (\`_metadata\` and the state headers only), then opens the Unknown fields view of \`${BENCH_STATES[0]}\` (every value of the state read by the structural scan in the worker; only values with unknown fields are decoded, for the per-field table); long tasks come from a PerformanceObserver installed before the app loads (only tasks ≥ 50 ms are reported by Chromium). Figure 6 runs dev.savepointinspector.fixtures.bench.StateProcessorReader (fixtures/flink-writer, \`-Pflink-2,bench-state-processor\`) and \`stats --json\` of the prebuilt CLI once each as whole processes; both must count the same values and payload bytes.`,
  ];
  return { figures, environment, notes };
}
