// The list of subcommands. Each module exports `register(program, setExit)`.
import type { Command } from 'commander';
import { register as alignCommand } from './align.ts';
import { register as compareCommand } from './compare.ts';
import { register as evalCommand } from './eval.ts';
import { register as exportCommand } from './export.ts';
import { register as generateCommand } from './generate.ts';
import { register as inspectCommand } from './inspect.ts';
import { register as modelsCommand } from './models.ts';
import { register as renderCommand } from './render.ts';
import { register as rubricCommand } from './rubric.ts';
import { register as scoreCommand } from './score.ts';
import { register as serveCommand } from './serve.ts';

export type RegisterCommand = (program: Command, setExit: (code: number) => void) => void;

export const commands: RegisterCommand[] = [
  exportCommand,
  inspectCommand,
  alignCommand,
  compareCommand,
  modelsCommand,
  renderCommand,
  serveCommand,
  generateCommand,
  evalCommand,
  rubricCommand,
  scoreCommand,
];
