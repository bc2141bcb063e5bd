import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/robustness/**/*.test.ts'],
    testTimeout: 600_000,
  },
});
