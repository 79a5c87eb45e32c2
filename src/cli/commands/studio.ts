// `rubrica studio`: a local web app for human studies over eval runs (absolute ratings,
// blinded pairwise comparisons, triple rankings). Thin: read the study file, start the
// studio, print the links, stay up until Ctrl-C.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readEnv } from '../../core/env.ts';
import { startStudio } from '../../studio/start.ts';
import { parseStudy, type Study } from '../../studio/study.ts';
import { inputDir, inputFile } from '../input-file.ts';
import type { RegisterCommand } from '../register.ts';
import { UsageError } from '../usage-error.ts';
import { intFlag } from './align.ts';

interface StudioFlags {
  run: string[];
  study?: string;
  db?: string;
  host: string;
  port: string;
  token?: string;
  insecure?: boolean;
}

export const register: RegisterCommand = (program) => {
  program
    .command('studio')
    .description('human studies in the browser: ratings, blinded pairwise, triple rankings')
    .requiredOption('--run <dir...>', 'eval run directories whose pictures are rated')
    .option('--study <file>', 'study file (JSON: kind, seed, sample, raters, repeats, checks)')
    .option('--db <file>', 'SQLite database of the study (default: studio-<name>.sqlite)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port (0 = any free port)', '8790')
    .option(
      '--token <token>',
      'admin token (default: generated, kept in the database; else RUBRICA_TOKEN)',
    )
    .option('--insecure', 'listen on a non-loopback --host without an explicit --token')
    .action(async (flags: StudioFlags) => {
      if (flags.study) inputFile('--study', flags.study);
      for (const dir of flags.run)
        inputFile('--run', join(inputDir('--run', dir), 'results.jsonl'));
      let raw: unknown = {};
      if (flags.study) {
        try {
          raw = JSON.parse(await readFile(flags.study, 'utf8'));
        } catch (err) {
          throw new UsageError(`cannot read --study ${flags.study}: ${(err as Error).message}`);
        }
      }
      let study: Study;
      try {
        study = parseStudy(raw, flags.study);
      } catch (err) {
        // A wrong study file is a usage mistake (exit 2), like a wrong flag.
        throw new UsageError((err as Error).message);
      }
      const studio = await startStudio({
        runs: flags.run,
        study,
        db: flags.db ?? `studio-${study.name.replace(/[^A-Za-z0-9._-]+/g, '_')}.sqlite`,
        host: flags.host,
        port: intFlag('--port', flags.port, 0),
        token: flags.token ?? readEnv('RUBRICA_TOKEN'),
        insecure: flags.insecure,
        onWarning: (m) => process.stderr.write(`rubrica studio: warning: ${m}\n`),
      });
      const lines = [
        `rubrica studio: ${study.kind} study "${study.name}" (database ${studio.store.path})`,
        `admin:  ${studio.adminUrl}`,
        ...studio.raterUrls.map((r) => `rater ${r.name}: ${r.url}`),
        `exports for rubrica align: ${studio.url}/api/admin/<admin token>/export.jsonl | .csv`,
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          void studio.close().then(resolve);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });
};
