#!/usr/bin/env node
// Entry point of the `rubrica` command. It runs the compiled JavaScript in dist/ (built by
// `npm run build`, which `npm ci` runs through `prepare`), so an installed package needs no
// TypeScript loader. In a clone (src/ next to dist/), a process started by the test runner
// (VITEST is set) or with RUBRICA_FROM_SOURCE=1 runs the TypeScript sources through tsx
// instead, so a test never runs a build older than the sources it tests.
import { existsSync } from 'node:fs';

// `rubrica … | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

const source = new URL('../src/cli/main.ts', import.meta.url);
const compiled = new URL('../dist/cli/main.js', import.meta.url);
let entry = compiled;
// Read directly, not through src/core/env.ts's readEnv: this file runs before any TypeScript
// can load. Both names are in that list (its test scans this file too).
const fromSource = process.env.RUBRICA_FROM_SOURCE === '1' || process.env.VITEST !== undefined;
if (fromSource && existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = source;
} else if (!existsSync(compiled)) {
  process.stderr.write('rubrica: dist/ is missing; run `npm run build` in the package folder\n');
  process.exit(1);
}
const { main, invokedCommand } = await import(entry.href);
process.exitCode = await main(process.argv);
// After Ctrl-C, model calls still in flight would keep the event loop alive: what was
// written is safe on disk, so leave now.
if (process.exitCode === 130) process.exit(130);
// A one-shot command (inspect, render) has nothing left once it returns: leave as soon as
// what it wrote has reached stdout and stderr (a pipe may still hold it on some systems).
if (invokedCommand(process.argv.slice(2))?.exitWhenDone) {
  const flushed = (stream) => new Promise((resolve) => stream.write('', () => resolve()));
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit();
}
