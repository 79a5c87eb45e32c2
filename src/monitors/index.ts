// Reward-health monitors for training runs and eval runs (flat groups, length growth, hack
// flags and what they earn, grader faults), with alert thresholds.
export * from './alerts.ts';
export * from './health.ts';
export * from './monitor.ts';
