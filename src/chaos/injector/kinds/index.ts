// Every kind `bosun inject` knows, by name: each becomes a subcommand with its own flags (src/cli/commands/inject.ts).
// The kinds that act through the node agent (pod replacement, node failure) get its actions when the CLI has
// connected to it; without them node failure falls back to upstream's sysrq, pod replacement refuses, and so does
// a network disruption's services filter (it learns Services and endpoints through the agent).
import type { DisruptionKindName } from '../../api/constants.ts';
import type { KindDefinition } from '../injector.ts';
import { containerFailureKind } from './container-failure.ts';
import { cpuPressureKind } from './cpu-pressure.ts';
import { diskPressureKind } from './disk-pressure.ts';
import { dnsDisruptionKind } from './dns-disruption.ts';
import { memoryPressureKind } from './memory-pressure.ts';
import { networkDisruptionKind } from './network-disruption.ts';
import type { NodeActions } from './node-actions.ts';
import { nodeFailureKind } from './node-failure.ts';
import { podReplacementKind } from './pod-replacement.ts';

export function kindDefinitions(actions: NodeActions = {}): KindDefinition[] {
  return [
    networkDisruptionKind(actions.watchService ? { watchService: actions.watchService.bind(actions) } : {}),
    nodeFailureKind({ actions }),
    containerFailureKind,
    cpuPressureKind,
    memoryPressureKind,
    diskPressureKind(),
    dnsDisruptionKind(),
    podReplacementKind(actions),
  ];
}

export function kindDefinition(name: DisruptionKindName, actions: NodeActions = {}): KindDefinition | undefined {
  return kindDefinitions(actions).find((kind) => kind.name === name);
}
