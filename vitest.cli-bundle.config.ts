import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cli-bundle`: the tests of the prebuilt CLI bundle, which build it (esbuild and a code
 * cache training run) into a temporary folder — a step of `npm test` of its own, after the unit run,
 * so that no unit test waits for a build.
 */
export default defineConfig({
  test: {
    include: ['tests/cli-bundle/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
