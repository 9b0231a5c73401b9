// The CEL evaluator behind x-kubernetes-validations (@marcbachmann/cel-js: zero dependencies, runs on Node 20).
import { parse } from '@marcbachmann/cel-js';
import type { CelEngine } from './custom-resource-schema.ts';

export const celEngine: CelEngine = {
  compile: (expression) => parse(expression) as (activation: Record<string, unknown>) => unknown,
};
