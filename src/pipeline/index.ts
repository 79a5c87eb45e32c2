// Public surface of the pipeline room.
export { type InspectCompletionOptions, inspectCompletion, inspectionToJson } from './inspect.ts';
export * from './score.ts';
export type * from './types.ts';
