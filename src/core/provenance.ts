// What produced a reward, on the record: the judge asked and what its server said about
// itself, how it was asked (temperature, seed, mode, prompt template) and how its answer was
// read (scoring). A researcher defending a reward in a paper's appendix can name every knob.
import { z } from 'zod';

/** The zod schema of a judged reward's provenance. */
export const ProvenanceSchema = z.object({
  /** The judge as configured, `provider:model`. */
  judge: z.string(),
  /** The model id the server answered as, when it said. */
  served_model: z.string().optional(),
  /** The server's `system_fingerprint` (its revision), when it sent one. */
  system_fingerprint: z.string().optional(),
  temperature: z.number(),
  seed: z.number().nullable(),
  /** How the item scores were read: expected (Σ p·v over logprobs) or greedy. */
  scoring: z.enum(['expected', 'greedy']),
  /** What was asked for (`auto` may have fallen back to greedy). */
  scoring_requested: z.enum(['expected', 'greedy', 'auto']),
  /** joint or per-item. */
  mode: z.string(),
  /** Content hash of the judge prompt template used. */
  prompt_hash: z.string(),
});
/** What produced a judged reward: judge, server revision, temperature, seed, scoring, mode, prompt. */
export type Provenance = z.infer<typeof ProvenanceSchema>;

/** The zod schema of one possible answer of a judge and its probability. */
export const ScoreMassSchema = z.object({ score: z.number(), p: z.number() });
