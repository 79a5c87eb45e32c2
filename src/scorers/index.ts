// Public surface of the scorers room: image scorers behind one interface (in-process CLIP
// and LAION aesthetic, HTTP scorer services such as HPSv2).
export * from './aesthetic-head.ts';
export * from './clip-model.ts';
export * from './clip-scorers.ts';
export * from './http-scorer.ts';
export * from './types.ts';
