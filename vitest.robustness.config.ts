import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/robustness/**/*.test.ts'],
    testTimeout: 600_000,
    // the mutation suite runs under a capped heap: a length field that slips past its check and
    // allocates shows up as a crash here instead of passing on a large machine
    pool: 'forks',
    execArgv: ['--max-old-space-size=512'],
    reporters: ['default', './tests/helpers/report-shared-skips.ts'],
    tags: [{ name: 'needs-shared', description: 'reads ../shared/flink-savepoints (skipped, and counted, when absent)' }],
  },
});
