// Public surface of the pipeline room.
export * from './score.ts';
