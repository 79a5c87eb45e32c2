// rubrica's version, read from the package's own package.json so that `rubrica --version`,
// the server's OpenAPI document and the published package never disagree. The relative
// path is the same from src/core/ (tests, tsx) and dist/core/ (the installed package).
import { readFileSync } from 'node:fs';

/**
 * rubrica's version, read from package.json (the CLI, the server's OpenAPI and the package
 * agree).
 */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;
