// `node --import record-imports.mjs …`: installs import-hooks.mjs, and at exit reports the
// native (.node) libraries mapped into the process, read from /proc/self/maps, as
// `rubrica-native <path>` lines on stderr. require() of a .node file does not go through
// ESM resolve hooks, so the memory map is where a native module shows.
import { readFileSync, writeSync } from 'node:fs';
import { register } from 'node:module';

register(new URL('./import-hooks.mjs', import.meta.url));
process.on('exit', () => {
  const maps = readFileSync('/proc/self/maps', 'utf8');
  const natives = new Set(maps.split('\n').flatMap((l) => l.match(/\S+\.node$/) ?? []));
  for (const path of natives) writeSync(2, `rubrica-native ${path}\n`);
});
