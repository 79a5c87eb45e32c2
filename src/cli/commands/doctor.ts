// `rubrica doctor`: what isolation this machine gives each domain (src/domains/doctor.ts), as
// a table or `--json`. The domains asked for are named as arguments or with --domain (both
// add up); none named means all of them. Exit 1 when a domain asked for cannot run safely,
// so a deployment script can refuse a machine before training starts (`rubrica doctor
// python dot` passes on a machine whose vega-lite is unsafe; plain `rubrica doctor` does not).
import { DOMAIN_IDS, type DomainId, isDomainId } from '../../core/domain-ids.ts';
import { doctorTable, runDoctor } from '../../domains/doctor.ts';
import type { RegisterCommand } from '../register.ts';
import { UsageError } from '../usage-error.ts';

interface DoctorFlags {
  domain?: string;
  json?: boolean;
  requireCgroup?: boolean;
  warmPools?: boolean;
}

export const register: RegisterCommand = (program, setExit) => {
  program
    .command('doctor')
    .argument('[domains...]', 'domains to check (default all); with --domain, both count')
    .description(
      'check each domain: tools and versions, sandbox start, memory cap, fonts, renderers, warm pool start; exit 1 if one asked for is unsafe',
    )
    .option(
      '--domain <ids>',
      `comma-separated domains to check (default all: ${DOMAIN_IDS.join(',')})`,
    )
    .option('--require-cgroup', 'a domain whose memory cap is per-process only is unsafe')
    .option('--no-warm-pools', 'do not time the warm pools (each starts one pool process)')
    .option('--json', 'print the report as JSON')
    .action(async (positional: string[], flags: DoctorFlags) => {
      let domains: DomainId[] | undefined;
      const named = [
        ...positional,
        ...(flags.domain === undefined ? [] : flags.domain.split(',')),
      ].map((s) => s.trim());
      if (named.length > 0 || flags.domain !== undefined) {
        const bad = named.filter((d) => !isDomainId(d));
        if (bad.length > 0 || named.length === 0) {
          throw new UsageError(`not a domain: ${bad.join(', ')} (one of ${DOMAIN_IDS.join(', ')})`);
        }
        domains = [...new Set(named)] as DomainId[];
      }
      const report = await runDoctor({
        ...(domains ? { domains } : {}),
        requireCgroup: flags.requireCgroup === true,
        warmPools: flags.warmPools !== false,
      });
      process.stdout.write(flags.json ? `${JSON.stringify(report)}\n` : doctorTable(report));
      if (!report.ok) setExit(1);
    });
};
