// Module resolve hook for the package test: reports every module URL a process resolves, one
// `rubrica-import <url>` line on stderr, so the test can tell what an entry point loads.
// Registered by record-imports.mjs (`node --import …/record-imports.mjs`).
import { writeSync } from 'node:fs';

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  writeSync(2, `rubrica-import ${result.url}\n`);
  return result;
}
