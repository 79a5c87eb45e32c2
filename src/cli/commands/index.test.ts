// The light command table must say what the command modules register: `rubrica --help` is
// printed from the table without loading them.
import { Command, Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { invokedCommand } from '../main.ts';
import { commandTable } from './index.ts';

describe('command table', () => {
  it('lists each command with the term and summary its module registers', async () => {
    const help = new Help();
    for (const [name, entry] of Object.entries(commandTable)) {
      const program = new Command('rubrica');
      (await entry.load()).register(program, () => {});
      expect(program.commands.map((c) => c.name())).toEqual([name]);
      const cmd = program.commands[0]!;
      expect(help.subcommandTerm(cmd)).toBe(entry.term);
      expect(cmd.description()).toBe(entry.summary);
    }
  });

  it('finds the command a command line runs', () => {
    expect(invokedCommand(['inspect', 'x.txt'])).toBe(commandTable.inspect);
    expect(invokedCommand(['help', 'score'])).toBe(commandTable.score);
    expect(invokedCommand(['rubric', 'synth', '--help'])).toBe(commandTable.rubric);
    for (const args of [[], ['--help'], ['-h', 'inspect'], ['help'], ['scroe'], ['toString']]) {
      expect(invokedCommand(args)).toBeUndefined();
    }
  });
});
