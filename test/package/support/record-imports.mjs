// `node --import record-imports.mjs …`: installs import-hooks.mjs, and at exit reports the
// native (.node) libraries mapped into the process, read from /proc/self/maps, as
// `rubrica-native <path>` lines on stderr. require() of a .node file does not go through
// ESM resolve hooks, so the memory map is where a native module shows. CommonJS require()s
// (rubrica loads sharp, fast-xml-parser and css-tree through createRequire) skip the ESM hook
// too: the CommonJS resolver is wrapped to report them the same way.
import { readFileSync, writeSync } from 'node:fs';
import Module, { register } from 'node:module';
import { pathToFileURL } from 'node:url';

register(new URL('./import-hooks.mjs', import.meta.url));
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function reportingResolve(...args) {
  const file = resolveFilename.apply(this, args);
  if (file.startsWith('/')) writeSync(2, `rubrica-import ${pathToFileURL(file).href}\n`);
  return file;
};
process.on('exit', () => {
  const maps = readFileSync('/proc/self/maps', 'utf8');
  const natives = new Set(maps.split('\n').flatMap((l) => l.match(/\S+\.node$/) ?? []));
  for (const path of natives) writeSync(2, `rubrica-native ${path}\n`);
});
