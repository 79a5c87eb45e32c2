// The "Environment variables:" section at the end of `rubrica --help`, printed from the one
// list in core/env.ts in commander's own layout (the same indent, columns and wrapping as
// the command list above it). Loaded only when the root help is printed.
import type { Command, Help } from 'commander';
import { ENV_VARS } from '../core/env.ts';

/** The section's lines after commander's help for `cmd`, ending with a blank line. */
export function environmentSection(cmd: Command, helper: Help): string {
  const width = Math.max(helper.padWidth(cmd, helper), ...ENV_VARS.map((v) => v.name.length));
  const items = ENV_VARS.map((v) =>
    helper.formatItem(v.name, width, `${v.meaning} (default: ${v.default})`, helper),
  );
  return helper.formatItemList('Environment variables:', items, helper).join('\n');
}
