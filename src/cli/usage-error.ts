// A bad flag or argument combination: the CLI exits with code 2.
import { RubricaError } from '../core/errors.ts';

export class UsageError extends RubricaError<'usage'> {
  constructor(message: string) {
    super('usage', message);
  }
}
