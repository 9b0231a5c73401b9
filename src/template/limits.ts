// Resource limits for untrusted templates. Go's only guard is maxExecDepth = 100000 nested template
// calls, far beyond a JS stack, and nothing bounds loops or output. We bound all three; nested
// executions started by functions (include) share the budget of the execution that called them.

import { TemplateLimitError } from './errors.ts';

export interface TemplateLimits {
  /**
   * Maximum depth of nested {{template}}/{{block}} calls plus nested executions (include).
   * Go allows 100000; 250 keeps inside Node's default stack even when each level nests
   * if/with/range (measured: ~400 such levels fit). A JS stack overflow that still happens
   * (e.g. deeply nested functions) is reported as a TemplateLimitError('depth') too.
   */
  maxDepth: number;
  /** Maximum evaluation steps (one per executed node and command) of one top-level execution. */
  maxSteps: number;
  /** Maximum output size in UTF-16 code units of one top-level execution (all nested output counts). */
  maxOutput: number;
}

export const DEFAULT_LIMITS: Readonly<TemplateLimits> = {
  maxDepth: 250,
  maxSteps: 10_000_000,
  maxOutput: 16 * 1024 * 1024,
};

/** Counters of one top-level execution, shared with nested ones. */
export class Budget {
  readonly limits: TemplateLimits;
  steps = 0;
  output = 0;
  depth = 0;
  constructor(limits: TemplateLimits) {
    this.limits = limits;
  }

  stepsExceeded(): never {
    throw new TemplateLimitError('steps', `template: execution exceeded the limit of ${this.limits.maxSteps} steps`);
  }

  addOutput(n: number): void {
    this.output += n;
    if (this.output > this.limits.maxOutput) {
      throw new TemplateLimitError('output', `template: output exceeded the limit of ${this.limits.maxOutput} characters`);
    }
  }

  enter(): void {
    if (++this.depth > this.limits.maxDepth) {
      this.depth--;
      throw new TemplateLimitError('depth', `template: exceeded maximum template depth (${this.limits.maxDepth})`);
    }
  }

  leave(): void {
    this.depth--;
  }
}

/** Converts a JS stack overflow into the depth limit error; rethrows anything else. */
export function rethrowStackOverflow(e: unknown): never {
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    throw new TemplateLimitError('depth', 'template: recursion too deep (stack exhausted)');
  }
  throw e;
}
