import { configDefaults, defineConfig } from 'vitest/config';

// Tests live beside the code (src/**/x.test.ts); cross-room end-to-end tests live in test/.
//
// Two projects, so that `npm test` stays under five minutes on a 2-core machine:
//  - fast (`npm test`): unit tests and in-process integration (real render pool, real
//    SQLite, real HTTP over loopback inside the test process);
//  - slow (`npm run test:slow`): files that start a process per case (the rubrica binary,
//    Python, Chromium), compare against an external renderer (CairoSVG), or run a whole
//    command end to end. CI (.ci/run) runs both; `npx vitest run` runs both too.
// (Project settings are merged into the shared ones below, arrays concatenated, so `include`
// is set per project.) A file listed in SLOW runs only there; every other test file in fast.
const SLOW = [
  '**/*.slow.test.ts', // by name: a new slow file needs no entry here
  'test/fidelity/**/*.test.ts', // CairoSVG in Python as the reference renderer
  'test/hostile/**/*.test.ts', // the hostile corpus through the CLI and the pool
  'test/report/**/*.test.ts', // Chromium
  'test/eval/cli.test.ts',
  'test/eval/eval-run.test.ts',
  'test/score/cli.test.ts',
  'test/scorers/cli-hybrid.test.ts',
  'test/scorers/eval-hybrid.test.ts',
  'test/scorers/http-scorer.test.ts', // spawns the Python scorer server
  'test/scorers/hybrid-flags.test.ts', // spawns the Python scorer server
  'test/server/serve-process.test.ts',
  'src/cli/commands/inspect.test.ts',
  'src/cli/commands/render.test.ts',
  'src/cli/commands/models.test.ts',
  'src/export/verl.test.ts',
];
// A third project, `package` (test/package/: packs the project, installs the tarball in a
// temporary project and runs it, minutes) is `npm run test:package`.

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SLOW, 'test/package/**'],
          // Files share a worker's module cache instead of re-importing sharp, the AI SDK,
          // hono, … for each file: 322 s -> 179 s wall for this project under the same load.
          // Safe while no test mocks modules or stubs globals (none does: no vi.mock,
          // vi.stubEnv or vi.stubGlobal); a file that must, goes to `slow`, which isolates.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'slow', include: SLOW } },
      {
        extends: true,
        test: { name: 'package', include: ['test/package/**/*.test.ts'], testTimeout: 300_000 },
      },
    ],
  },
});
