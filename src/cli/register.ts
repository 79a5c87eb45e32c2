// The shape of a command module: it adds itself to the program and reports its exit code.
import type { Command } from 'commander';

export type RegisterCommand = (program: Command, setExit: (code: number) => void) => void;
