// The relative-judging flags (issue 37): --judging, --pairs and --group-orders, added to every command that
// judges a GRPO group (score, serve, rescore). Their values are parsed with the rest of the
// judging strategy by judgingFromFlags (src/cli/judging-flags.ts), never here.
import type { Command } from 'commander';

export function addRelativeFlags(cmd: Command): Command {
  return cmd
    .option(
      '--judging <mode>',
      'absolute (each picture alone, default) | pairwise (a GRPO group compared in ordered pairs, both orders, Bradley–Terry) | group (a GRPO group shown in one call, up to 8 pictures, in two or more orders; the judge must accept several images; docs/rubrics-and-judging.md)',
    )
    .option(
      '--pairs <which>',
      'pairwise: circular (each with the next round a ring: 2N judge calls a group of N, default) | all (every pair: N(N−1) calls)',
    )
    .option(
      '--group-orders <which>',
      'group: mirror (forward and reversed: 2 calls a chunk of up to 8, default) | rotation (every cyclic rotation: n calls a chunk of n, cancels any position bias)',
    );
}
