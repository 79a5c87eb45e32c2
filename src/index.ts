// rubrica's library surface. The CLI and the HTTP server are thin faces over these.
export * from './core/criteria.ts';
export * from './core/errors.ts';
export * from './core/record.ts';
export * from './core/usage.ts';
