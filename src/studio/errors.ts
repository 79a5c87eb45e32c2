// Failures of `rubrica studio` a user can act on (a bad study file, runs without pictures, a
// database made for another study), with stable codes like every rubrica error.
import { RubricaError } from '../core/errors.ts';

export type StudioErrorCode =
  | 'bad_study'
  | 'no_run'
  | 'no_items'
  | 'no_units'
  | 'study_mismatch'
  | 'bad_answer';

export class StudioError extends RubricaError<StudioErrorCode> {}
