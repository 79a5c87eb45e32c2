#!/usr/bin/env node
// Entry point of the `rubrica` command. The sources are TypeScript run through tsx's
// loader, so a fresh clone works after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
// `rubrica … | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv);
// After Ctrl-C, model calls still in flight would keep the event loop alive: what was
// written is safe on disk, so leave now.
if (process.exitCode === 130) process.exit(130);
