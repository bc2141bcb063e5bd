import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
    // the robustness suite and the CLI bundle's tests are steps of `npm test` of their own (their configs)
    exclude: ['tests/robustness/**', 'tests/cli-bundle/**', 'node_modules/**'],
    testTimeout: 30_000,
  },
});
