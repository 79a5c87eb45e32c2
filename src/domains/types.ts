// The contract every visual-code domain fulfils (issue 12, PrismaForge's "standard renderer per
// format"): how to recognise the domain in a completion, how to turn its code into a PNG, and
// where its reusable criteria live. A render failure is a value with a stable code — the
// policy's code failing is a measurement (reward 0), never an exception.

import type { ResolvedAssets } from '../core/assets.ts';
import type { DomainId } from '../core/domain-ids.ts';
import type { ErrorValue, RenderErrorCode } from '../core/errors.ts';

/** Why a domain's code gave no usable picture (beyond the SVG renderer's own codes). */
export type DomainErrorCode =
  | 'exec_error' // the program/compiler failed; the message ends with the tail of stderr
  | 'timeout' // over the wall-clock or CPU limit; the whole process group was killed
  | 'no_output' // it finished but drew nothing (no figure, no page, empty graph)
  | 'blank' // a picture came out but every pixel is the background
  | 'too_large' // the code, the output or the picture is over a limit
  | 'sandbox_error'; // the sandbox itself could not run (missing bwrap, died mid-job)

export type DomainRenderErrorCode = DomainErrorCode | RenderErrorCode;

/** Cheap facts a renderer learns while running the code (fed to the domain checks). */
export interface DomainNotes {
  /** Python: warnings raised while the script ran. */
  warnings?: string[];
  /** Last lines of stderr (bounded), for messages and reports. */
  stderrTail?: string;
  /** html: console errors logged by the page. */
  consoleErrors?: number;
  /** html: the first console error messages (at most 5, 300 characters each). */
  consoleMessages?: string[];
  /** html/mermaid: requests the page tried and the sandbox blocked. */
  blockedRequests?: number;
  /** charts: rows of data the chart was given (vega-lite). */
  dataRows?: number;
  /** html: the laid-out document's size against the viewport's, CSS px. */
  layout?: { documentWidth: number; documentHeight: number; viewportWidth: number };
  /** html: the page was still loading its own requests 2 s after `load`, and was shot as it stood. */
  stillLoading?: boolean;
  /** html full page: the document's height, the picture's, the cap, and whether it was cut. */
  fullPage?: { documentHeight: number; height: number; maxHeight: number; clipped: boolean };
}

/**
 * A domain render's outcome: the PNG and its size, or an error value; the domain's notes
 * (warnings, what was cut) either way.
 */
export type DomainRender =
  | { ok: true; png: Buffer; width: number; height: number; ms: number; notes: DomainNotes }
  | { ok: false; error: ErrorValue<DomainRenderErrorCode>; ms: number; notes?: DomainNotes };

export interface DomainRenderOptions {
  /** Wall-clock limit, ms (each domain has a default). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * The task's data files (name → bytes, already checked: src/domains/assets.ts), readable by
   * this job alone under their names: python (files in its working directory) and vega-lite
   * (`data.url`); the other domains ignore them (docs/domains.md).
   */
  assets?: ResolvedAssets;
}

/** One domain's renderer: owns its warm pool; close() ends every process it started. */
export interface DomainRenderer {
  render(code: string, opts?: DomainRenderOptions): Promise<DomainRender>;
  close(): Promise<void>;
}

export interface Domain {
  id: DomainId;
  /** Fence info words that name this domain (lowercase). */
  fenceLangs: readonly string[];
  /** How sure (0..1) that unlabelled code is this domain, from its content alone. */
  detect(code: string): number;
  /** Prompts/domains/<id>/criteria.md: the domain-shared criteria, relative to the package root. */
  criteriaPath: string;
}
