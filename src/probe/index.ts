// The judge-health probe (`rubrica probe`): perturbations, verdicts, runner and health card.
export { renderHealthCard } from './card.ts';
export { PERTURBATION_PROBES } from './catalogue.ts';
export { type ProbeOptions, runProbe } from './run.ts';
export * from './types.ts';
export { writeProbeOutputs } from './write.ts';
