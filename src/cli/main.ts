// The `rubrica` command: one file per subcommand under commands/, each a thin face over
// the library. Exit codes: 0 done, 1 the input could not be processed (or some items ended
// in a grader fault, or nothing could be scored), 2 usage error, 130 interrupted (Ctrl-C).
import { Command, CommanderError } from 'commander';
import { OutputPathError, RunInterruptedError } from '../store/jsonl.ts';
import { JsonlFormatError } from '../store/jsonl-input.ts';
import { OutputLockedError } from '../store/lock.ts';
import { commands } from './commands/index.ts';
import { UsageError } from './usage-error.ts';

export async function main(argv: string[]): Promise<number> {
  const program = new Command('rubrica')
    .description('Rubric rewards and evaluations for LLMs that write visual code')
    .version('0.1.0')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  let exitCode = 0;
  const setExit = (code: number) => {
    exitCode = Math.max(exitCode, code);
  };
  for (const register of commands) register(program, setExit);
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end through here with exit code 0.
      return err.exitCode === 0 ? 0 : 2;
    }
    if (
      err instanceof UsageError ||
      err instanceof OutputLockedError ||
      err instanceof OutputPathError
    ) {
      process.stderr.write(`rubrica: ${err.message}\n`);
      return 2;
    }
    if (err instanceof JsonlFormatError) {
      process.stderr.write(`rubrica: ${err.message}\n`);
      return 1;
    }
    if (err instanceof RunInterruptedError) {
      process.stderr.write(`rubrica: ${err.message}\n`);
      return 130;
    }
    throw err;
  }
  return exitCode;
}
