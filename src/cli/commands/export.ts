// `rubrica export <format>`: write rubrica's data in a trainer's own format. One function per
// subcommand, each registered on the `export` group below; the work is in src/export/.
import type { Command } from 'commander';
import { exportVerl } from '../../export/verl.ts';
import { readInputText } from '../input-file.ts';
import type { RegisterCommand } from '../register.ts';
import { UsageError } from '../usage-error.ts';
import { registerSft } from './export-sft.ts';

export const register: RegisterCommand = (program, setExit) => {
  const group = program
    .command('export')
    .description("write rubrica data in a trainer's dataset format");
  registerVerl(group, setExit);
  registerSft(group, setExit);
};

const readText = (path: string, flag: string): string => readInputText(flag, path);

function registerVerl(group: Command, setExit: (code: number) => void): void {
  group
    .command('verl')
    .description(
      'rubrics → verl parquet (prompt as chat messages, reward_model.ground_truth = rubric id)',
    )
    .requiredOption('--rubrics <file>', 'rubrics.jsonl from `rubrica rubric synth`')
    .requiredOption('--out <file>', 'parquet file to write, e.g. train.parquet')
    .option('--system <file>', 'text file put as a system message before every prompt')
    .option('--data-source <name>', 'verl data_source column', 'rubrica')
    .option(
      '--ability <name>',
      "verl ability column (default: each rubric's domain, svg when none)",
    )
    .option('--style <style>', 'reward_model.style: rule | model', 'rule')
    .option('--split <name>', 'extra_info.split', 'train')
    .option('--include-dropped', 'also export rubrics the filter dropped (default: kept only)')
    .action((o) => {
      if (o.style !== 'rule' && o.style !== 'model') {
        throw new UsageError(`--style must be rule or model, not ${JSON.stringify(o.style)}`);
      }
      readText(o.rubrics, '--rubrics');
      const system = o.system ? readText(o.system, '--system').trim() : undefined;
      const summary = exportVerl(o.rubrics, o.out, {
        system,
        dataSource: o.dataSource,
        ability: o.ability,
        style: o.style,
        split: o.split,
        includeDropped: Boolean(o.includeDropped),
      });
      const notes = [
        summary.skippedDropped ? `${summary.skippedDropped} dropped rubrics skipped` : '',
        summary.badLines.length ? `${summary.badLines.length} unreadable lines` : '',
      ].filter(Boolean);
      process.stderr.write(
        `wrote ${summary.rows} rows to ${o.out}${notes.length ? ` (${notes.join('; ')})` : ''}\n`,
      );
      for (const b of summary.badLines.slice(0, 5)) {
        process.stderr.write(`  ${o.rubrics}:${b.line}: ${b.message}\n`);
      }
      if (summary.rows === 0) setExit(1);
    });
}
