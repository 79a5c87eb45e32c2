// `rubrica doctor`: what isolation this machine gives each domain (src/domains/doctor.ts), as
// a table or `--json`. Exit 1 when a checked domain cannot run safely, so a deployment script
// can refuse a machine before training starts.
import { DOMAIN_IDS, type DomainId, isDomainId } from '../../core/domain-ids.ts';
import { doctorTable, runDoctor } from '../../domains/doctor.ts';
import type { RegisterCommand } from '../register.ts';
import { UsageError } from '../usage-error.ts';

interface DoctorFlags {
  domain?: string;
  json?: boolean;
  requireCgroup?: boolean;
}

export const register: RegisterCommand = (program, setExit) => {
  program
    .command('doctor')
    .description('check each domain: tools, sandbox start, memory cap; exit 1 if one is unsafe')
    .option(
      '--domain <ids>',
      `comma-separated domains to check (default all: ${DOMAIN_IDS.join(',')})`,
    )
    .option('--require-cgroup', 'a domain whose memory cap is per-process only is unsafe')
    .option('--json', 'print the report as JSON')
    .action(async (flags: DoctorFlags) => {
      let domains: DomainId[] | undefined;
      if (flags.domain !== undefined) {
        const ids = flags.domain.split(',').map((s) => s.trim());
        const bad = ids.filter((d) => !isDomainId(d));
        if (bad.length > 0 || ids.length === 0) {
          throw new UsageError(
            `--domain: not a domain: ${bad.join(', ')} (one of ${DOMAIN_IDS.join(', ')})`,
          );
        }
        domains = ids as DomainId[];
      }
      const report = await runDoctor({
        ...(domains ? { domains } : {}),
        requireCgroup: flags.requireCgroup === true,
      });
      process.stdout.write(flags.json ? `${JSON.stringify(report)}\n` : doctorTable(report));
      if (!report.ok) setExit(1);
    });
};
