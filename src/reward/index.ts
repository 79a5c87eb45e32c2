// Public surface of the reward room: weighted rubric reward, GRPO group statistics.
export * from './grpo.ts';
export * from './hybrid.ts';
export * from './summary.ts';
export * from './weighted.ts';
