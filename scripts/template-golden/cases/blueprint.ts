// Realistic blueprint templates: the benchmark's deploy execution at small sizes, and the simple one-liners.
import type { CaseSource } from '../lib/case.ts';
import { blueprintCase, simpleTemplates } from '../lib/blueprint.ts';

export const cases: CaseSource[] = [
  ...[1, 3, 8].map((n) => ({ ...blueprintCase(n), note: `blueprint with ${n} deploy items` })),
  ...simpleTemplates,
];
