#!/usr/bin/env node
// Entry point of the `rubrica` command. It runs the compiled JavaScript in dist/ (built by
// `npm run build`, which `npm ci` runs through `prepare`), so an installed package needs no
// TypeScript loader. The repository's own tests set RUBRICA_FROM_SOURCE=1 (vitest.config.ts)
// and get the TypeScript sources through tsx instead, so a test never runs a stale build.
import { existsSync } from 'node:fs';

// `rubrica … | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

const source = new URL('../src/cli/main.ts', import.meta.url);
const compiled = new URL('../dist/cli/main.js', import.meta.url);
let entry = compiled;
if (process.env.RUBRICA_FROM_SOURCE === '1' && existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = source;
} else if (!existsSync(compiled)) {
  process.stderr.write('rubrica: dist/ is missing; run `npm run build` in the package folder\n');
  process.exit(1);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv);
