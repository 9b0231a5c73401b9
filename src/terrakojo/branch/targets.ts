// What a matched template runs on, by its executionUnit (upstream's workflowTargets): one Workflow per folder of
// the matched files (root-level files have no folder and are dropped), one for the whole repository ("."), or
// one per file. Sorted and unique, so the same files always give the same Workflows.
import { posix } from 'node:path';
import { EXECUTION_UNITS, type ExecutionUnit } from '../api/constants.ts';

export interface WorkflowTarget {
  /** A folder, "." or a file path: Workflow spec.path. */
  path: string;
  executionUnit: ExecutionUnit;
}

/** Upstream treats an empty or unknown executionUnit as "folder". */
export function normalizeExecutionUnit(unit: string | undefined): ExecutionUnit {
  return EXECUTION_UNITS.find((known) => known === unit) ?? 'folder';
}

export function workflowTargets(unit: string | undefined, files: readonly string[]): WorkflowTarget[] {
  const executionUnit = normalizeExecutionUnit(unit);
  switch (executionUnit) {
    case 'repository':
      return [{ path: '.', executionUnit }];
    case 'file':
      return uniqueSorted(files).map((path) => ({ path, executionUnit }));
    case 'folder':
      return uniqueSorted(files.map((file) => posix.dirname(file)).filter((dir) => dir !== '.' && dir !== '')).map((path) => ({ path, executionUnit }));
  }
}

/** Code-unit order: byte order for ASCII, as Go's sort.Strings. */
export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function uniqueSorted(values: readonly string[]): string[] {
  return [...new Set(values)].sort(byteOrder);
}
