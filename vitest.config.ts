import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
    // the robustness suite and the CLI bundle's tests are steps of `npm test` of their own (their configs)
    exclude: ['tests/robustness/**', 'tests/cli-bundle/**', 'node_modules/**'],
    // Timeouts catch hangs, not slowness: no unit test may fail because the machine is busy. The slowest
    // test takes ~4 s on an idle machine; under another heavy job a run took 11x as long. One limit for
    // every test and hook, and no test sets a lower one.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Vitest's default is one worker per core but one: on 2 cores a single worker, while the main process
    // mostly waits. Two workers were faster on a busy 2-core machine (161 s -> 134 s back to back, under
    // a rising load of other jobs).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // the last line says how many tests were skipped for want of ../shared/flink-savepoints
    reporters: ['default', './tests/helpers/report-shared-skips.ts'],
    tags: [{ name: 'needs-shared', description: 'reads ../shared/flink-savepoints (skipped, and counted, when absent)' }],
  },
});
