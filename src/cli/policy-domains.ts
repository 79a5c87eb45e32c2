// `eval --policy`: a reward that does not apply to a domain (src/reward/applies.ts) is refused
// before the policy is called whenever the domain is known before sampling — the prompts
// file's `domain` or `--domain` — so a misconfigured run costs no samples. A prompt whose
// domain only detection can tell (its answer's fences) is checked at its first sample: the
// hook returned here makes sampling stop there, once, never a 0 per rollout.
import type { DomainId } from '../core/domain-ids.ts';
import type { RewardKind } from '../core/record.ts';
import type { GeneratedLine } from '../eval/generate.ts';
import type { PromptLine } from '../eval/run-inputs.ts';
import { completionDomain } from '../inspect/inspect.ts';
import { type ApplyOptions, rewardDomainProblem, rewardsRestricted } from '../reward/applies.ts';
import { UsageError } from './usage-error.ts';

const problemOf = (kinds: readonly RewardKind[], domain: DomainId, o: ApplyOptions) => {
  for (const k of kinds) {
    const p = rewardDomainProblem(k, domain, o);
    if (p) return p;
  }
  return null;
};

/**
 * Throws a UsageError (exit 2, naming reward and domain) when a reward does not apply to a
 * domain declared before sampling. Returns the per-sample check for prompts whose domain is
 * undeclared (their samples are detected), or undefined when there is nothing left to check.
 */
export function checkPolicyDomains(
  prompts: readonly PromptLine[],
  kinds: readonly RewardKind[],
  apply: ApplyOptions,
  at: { promptsFile: string; domain?: DomainId },
): ((line: GeneratedLine) => string | null) | undefined {
  if (!rewardsRestricted(kinds, apply)) return undefined;
  let undeclared = false;
  for (const p of prompts) {
    const domain = p.domain ?? at.domain;
    if (domain === undefined) {
      undeclared = true;
      continue;
    }
    const problem = problemOf(kinds, domain, apply);
    if (problem) {
      const where = p.domain
        ? `prompt ${JSON.stringify(p.id)} of ${at.promptsFile} is ${domain}`
        : `--domain ${domain}`;
      throw new UsageError(`${problem} (${where}; refused before any policy call)`);
    }
  }
  if (!undeclared) return undefined;
  return (line) => {
    if (line.completion === undefined || line.domain) return null;
    const domain = completionDomain(line.completion);
    const problem = problemOf(kinds, domain, apply);
    return problem
      ? `${problem} (sample ${line.id} was detected as ${domain}; sampling stopped there — give "domain" in the prompts file or --domain to refuse before any policy call)`
      : null;
  };
}
