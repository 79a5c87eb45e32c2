// Documented blocks known to be broken whose fix waits on another change (a file being edited
// elsewhere). Each entry names the block by a line it contains; the tests still compile and
// run it, but expect it to fail, and fail themselves once it passes, so that the entry is
// removed as soon as the fix lands. Keep this list empty whenever possible.
import type { DocBlock } from './code-blocks.ts';

export interface PendingFix {
  file: string;
  /** A line of the block, to find it whatever its line number. */
  contains: string;
  /** What is wrong and the fix. */
  why: string;
  /** The block does not type-check yet. */
  compile: boolean;
  /** The block cannot run here and needs this `static` marker's reason. */
  static?: string;
}

export const PENDING_FIXES: PendingFix[] = [];

/** The pending fix of a block, if it has one. */
export function pendingFix(b: DocBlock): PendingFix | undefined {
  return PENDING_FIXES.find((p) => p.file === b.file && b.code.includes(p.contains));
}
