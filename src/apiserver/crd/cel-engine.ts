// The CEL evaluator behind x-kubernetes-validations (@marcbachmann/cel-js: zero dependencies, runs on Node 20),
// with CEL optionals enabled as kube-apiserver has them (optionalOldSelf, `.?field`, optional.of/none).
import { Environment, Optional } from '@marcbachmann/cel-js';
import type { CelEngine } from './custom-resource-schema.ts';

const environment = new Environment({ unlistedVariablesAreDyn: true, enableOptionalTypes: true });

export const celEngine: CelEngine = {
  compile: (expression) => environment.parse(expression) as (activation: Record<string, unknown>) => unknown,
  optional: (value) => (value === undefined ? Optional.none() : Optional.of(value)),
};
