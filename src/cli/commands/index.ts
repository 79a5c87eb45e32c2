// The list of subcommands. Each module exports `register(program, setExit)`.
import type { Command } from 'commander';
import { register as exportCommand } from './export.ts';

export type RegisterCommand = (program: Command, setExit: (code: number) => void) => void;

export const commands: RegisterCommand[] = [exportCommand];
