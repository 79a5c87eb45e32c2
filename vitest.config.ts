import { defineConfig } from 'vitest/config';

// Tests live beside the code (src/**/x.test.ts); cross-room end-to-end tests live in test/.
// Two projects: `unit` is `npm test`; `package` (test/package/: packs the project, installs
// the tarball in a temporary project and runs it, minutes) is `npm run test:package`.
// `npx vitest run <path>` runs whichever project holds the path.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['test/package/**'],
        },
      },
      {
        extends: true,
        test: { name: 'package', include: ['test/package/**/*.test.ts'], testTimeout: 300_000 },
      },
    ],
  },
});
