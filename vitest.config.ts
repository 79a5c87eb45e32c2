import { defineConfig } from 'vitest/config';

// Tests live beside the code (src/**/x.test.ts); cross-room end-to-end tests live in test/.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Tests that spawn bin/rubrica.js inherit this: the binary then runs the TypeScript
    // sources through tsx rather than dist/, which may be older than the sources.
    env: { RUBRICA_FROM_SOURCE: '1' },
  },
});
