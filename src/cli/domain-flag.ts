// `--domain <id|auto>`, shared by the commands that read completions or code.
import { DOMAIN_IDS, type DomainId, isDomainId } from '../core/domain-ids.ts';
import { UsageError } from './usage-error.ts';

export function domainFlag(v: string | undefined): DomainId | 'auto' | undefined {
  if (v === undefined || v === 'auto') return v;
  if (isDomainId(v)) return v;
  throw new UsageError(`--domain must be auto or one of ${DOMAIN_IDS.join(', ')}, got "${v}"`);
}
