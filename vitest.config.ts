import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
    // the robustness suite and the CLI bundle's tests are steps of `npm test` of their own (their configs)
    exclude: ['tests/robustness/**', 'tests/cli-bundle/**', 'node_modules/**'],
    testTimeout: 30_000,
    // the last line says how many tests were skipped for want of ../shared/flink-savepoints
    reporters: ['default', './tests/helpers/report-shared-skips.ts'],
    tags: [{ name: 'needs-shared', description: 'reads ../shared/flink-savepoints (skipped, and counted, when absent)' }],
  },
});
