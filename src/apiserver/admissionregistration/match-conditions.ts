// matchConditions: CEL expressions over `object`, `oldObject` and `request` that narrow when a webhook is called,
// evaluated as kube-apiserver's matchconditions matcher does (any false skips; errors fall to failurePolicy).
// `authorizer` and `params` are not provided: an expression that uses them fails to evaluate.
import { parse } from '@marcbachmann/cel-js';

export class MatchConditionCompileError extends Error {
  override readonly name = 'MatchConditionCompileError' as const;
}

type Program = (activation: Record<string, unknown>) => unknown;

export interface CompiledMatchCondition {
  readonly name: string;
  readonly expression: string;
  readonly program: Program;
}

export interface MatchConditionActivation {
  object: unknown;
  oldObject: unknown;
  request: unknown;
}

/** `matches: false` skips the webhook; `error` is set when no condition was false but some failed to evaluate. */
export interface MatchConditionResult {
  matches: boolean;
  error?: string;
}

export function compileMatchCondition(expression: string): Program {
  try {
    return parse(expression) as Program;
  } catch (error) {
    throw new MatchConditionCompileError(error instanceof Error ? error.message.trim() : String(error));
  }
}

export function evaluateMatchConditions(conditions: readonly CompiledMatchCondition[], activation: MatchConditionActivation): MatchConditionResult {
  const errors: string[] = [];
  const vars = { object: activation.object ?? null, oldObject: activation.oldObject ?? null, request: activation.request };
  for (const condition of conditions) {
    let result: unknown;
    try {
      result = condition.program(vars);
    } catch (error) {
      errors.push(`expression '${condition.expression}' resulted in error: ${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)}`);
      continue;
    }
    if (result === false) return { matches: false };
    if (result !== true) errors.push(`expression '${condition.expression}' resulted in error: expected a boolean result, got ${typeof result}`);
  }
  if (errors.length === 0) return { matches: true };
  // utilerrors.NewAggregate renders one error as itself and several as `[a, b]`.
  return { matches: true, error: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
}
