// `--renderer librsvg|resvg|chromium`, shared by every command that renders (render,
// inspect, score, eval, serve, rubric synth): who draws the picture the judge and the
// checks see. The value becomes the render pool's default, so every render of the run
// uses it. Kept free of heavy imports: commands load this at start-up.
import type { Command } from 'commander';
import { DEFAULT_RENDERER } from '../render/defaults.ts';
import { RENDERER_NAMES, type RendererName } from '../render/types.ts';
import { UsageError } from './usage-error.ts';

export function addRendererFlag(cmd: Command): Command {
  return cmd.option(
    '--renderer <name>',
    `who draws the picture: ${RENDERER_NAMES.join(' | ')} (default ${DEFAULT_RENDERER})`,
  );
}

export function parseRenderer(value: string | undefined): RendererName | undefined {
  if (value === undefined) return undefined;
  if (!(RENDERER_NAMES as readonly string[]).includes(value)) {
    throw new UsageError(`--renderer must be one of ${RENDERER_NAMES.join(', ')}, got "${value}"`);
  }
  return value as RendererName;
}

/** Render-pool options for the flag: `{ defaults: { renderer } }`, or nothing. */
export function rendererPoolOptions(flags: { renderer?: string }) {
  const renderer = parseRenderer(flags.renderer);
  return renderer ? { defaults: { renderer } } : {};
}
