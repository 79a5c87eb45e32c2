// The relative-judging flags (issue 37): --judging and --pairs, added to every command that
// judges a GRPO group (score, serve, rescore). Their values are parsed with the rest of the
// judging strategy by judgingFromFlags (src/cli/judging-flags.ts), never here.
import type { Command } from 'commander';

export function addRelativeFlags(cmd: Command): Command {
  return cmd
    .option(
      '--judging <mode>',
      'absolute (each picture alone, default) | pairwise (a GRPO group compared in ordered pairs, both orders, Bradley–Terry; docs/rubrics-and-judging.md)',
    )
    .option(
      '--pairs <which>',
      'pairwise: circular (each with the next round a ring: 2N judge calls a group of N, default) | all (every pair: N(N−1) calls)',
    );
}
