// Every kind `bosun inject` knows, by name: each becomes a subcommand with its own flags (src/cli/commands/inject.ts).
import type { DisruptionKindName } from '../../api/constants.ts';
import type { KindDefinition } from '../injector.ts';
import { containerFailureKind } from './container-failure.ts';
import { cpuPressureKind } from './cpu-pressure.ts';
import { memoryPressureKind } from './memory-pressure.ts';

export const KIND_DEFINITIONS: readonly KindDefinition[] = [containerFailureKind, cpuPressureKind, memoryPressureKind];

export function kindDefinition(name: DisruptionKindName): KindDefinition | undefined {
  return KIND_DEFINITIONS.find((kind) => kind.name === name);
}
