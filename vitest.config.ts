import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
    exclude: ['tests/robustness/**', 'node_modules/**'],
    testTimeout: 30_000,
  },
});
