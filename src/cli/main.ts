// The `rubrica` command: one file per subcommand under commands/, each a thin face over
// the library. Exit codes: 0 done, 1 the input could not be processed (or some items ended
// in a grader fault, or nothing could be scored), 2 usage error, 130 interrupted (Ctrl-C).
// Start-up is kept short on purpose: `--version` is answered before anything is loaded, a
// subcommand loads only its own module, and the top-level help is listed from the light
// table in commands/index.ts (see bench/cli.bench.ts for the figures).
import type { Command } from 'commander';
import { RubricaError } from '../core/errors.ts';
import { VERSION } from '../core/version.ts';
import { type CommandEntry, commandTable } from './commands/index.ts';
import { UsageError } from './usage-error.ts';

/** The table entry of the command `args` runs, or undefined for help, errors and no command. */
export function invokedCommand(args: readonly string[]): CommandEntry | undefined {
  // The program itself has no options but -h/-V, so a command is always the first word
  // (`rubrica help <command>` names it second).
  const name = args[0] === 'help' ? args[1] : args[0];
  if (name === undefined || !Object.hasOwn(commandTable, name)) return undefined;
  return commandTable[name];
}

export async function main(argv: string[]): Promise<number> {
  const args = argv.slice(2);
  if (args[0] === '--version' || args[0] === '-V') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  // First of all, so that what it starts overlaps loading commander and the command.
  const wantsHelp = args.includes('--help') || args.includes('-h') || args[0] === 'help';
  if (!wantsHelp) await invokedCommand(args)?.prestart?.();
  const { Command, CommanderError, Help } = await import('commander');
  const program = new Command('rubrica')
    .description('Rubric rewards and evaluations for LLMs that write visual code')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  let exitCode = 0;
  const setExit = (code: number) => {
    exitCode = Math.max(exitCode, code);
  };
  const entry = invokedCommand(args);
  if (entry) (await entry.load()).register(program, setExit);
  else listCommands(program, new Help(), (await import('./env-help.ts')).environmentSection);
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end through here with exit code 0.
      return err.exitCode === 0 ? 0 : 2;
    }
    if (err instanceof UsageError) {
      process.stderr.write(`rubrica: ${err.message}\n`);
      return 2;
    }
    // An operational failure rubrica understands (a damaged cache, a model server that does
    // not answer, a port in use, an optional part not installed, input that is not JSONL):
    // one line saying what and what to do, no stack trace. Matched by stable code, so this
    // file loads none of the rooms that throw them.
    if (err instanceof RubricaError) {
      process.stderr.write(`rubrica: ${err.message}\n`);
      // A reward asked for a domain it does not apply to is a usage error, like a bad flag.
      if (
        err.code === 'output_locked' ||
        err.code === 'bad_output_path' ||
        err.code === 'reward_not_applicable' ||
        err.code === 'unknown_gate_check' ||
        err.code === 'input_not_regular_file' ||
        err.code === 'input_too_large'
      )
        return 2;
      return err.code === 'interrupted' ? 130 : 1;
    }
    // A path a command did not check up front (src/cli/input-file.ts checks its inputs):
    // still one line and exit 2, not a stack trace.
    const { fsErrorLine } = await import('./input-file.ts');
    const line = fsErrorLine(err);
    if (line !== null) {
      process.stderr.write(`rubrica: ${line}\n`);
      return 2;
    }
    throw err;
  }
  return exitCode;
}

/**
 * Registers every command as a bare name with its summary: enough for the help listing and
 * for commander's "unknown command (Did you mean …?)" answer, without loading any module.
 * The help ends with the environment variables rubrica reads (core/env.ts's list).
 */
function listCommands(
  program: Command,
  help: InstanceType<typeof import('commander').Help>,
  environmentSection: typeof import('./env-help.ts').environmentSection,
) {
  for (const [name, c] of Object.entries(commandTable))
    program.command(name).description(c.summary);
  program.configureHelp({
    subcommandTerm: (cmd) => commandTable[cmd.name()]?.term ?? help.subcommandTerm(cmd),
    formatHelp: (cmd, helper) =>
      `${help.formatHelp(cmd, helper)}\n${environmentSection(cmd, helper)}`,
  });
}
