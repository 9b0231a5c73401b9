// Template state: a GoTemplate execution sees its previous `state` output as `.state`; a top-level
// `state:` key in its output is stored back. Upstream keeps it in a Secret (key "config", owner =
// installation) named base32(SHA-1("<installation>/<key>")) with key = "deploy<exec>" for deploy and
// subinstallation executions and "export<exec>" for export executions. These functions are pure;
// the controller does the Secret I/O.
import type { AnyJSON } from '../api/shared.ts';
import { goJSONMarshal } from '../go-json.ts';
import { templateStateSecretName, type TemplateStateKind } from '../naming.ts';
import { isObject, parseYaml } from '../yaml.ts';

export { templateStateSecretName, type TemplateStateKind };

/** Previous states by state key (see stateKey); missing keys read as {}. */
export type TemplateStates = { [stateKey: string]: AnyJSON };

/** The blueprint lists whose executions keep template state. */
export type StatefulExecutionList = 'deployExecutions' | 'subinstallationExecutions' | 'exportExecutions';

/**
 * "deploy<name>" / "export<name>": the key upstream hashes into the Secret name (deploy and subinstallation
 * executions share the "deploy" prefix, as upstream). Upstream keys an unnamed execution "deploy" too, so two
 * unnamed executions read and overwrite one state; Bosun keys each unnamed one by its place in the blueprint.
 */
export function stateKey(list: StatefulExecutionList, exec: { name: string }, index: number): string {
  const kind: TemplateStateKind = list === 'exportExecutions' ? 'export' : 'deploy';
  return kind + (exec.name !== '' ? exec.name : `${list}[${index}]`);
}

/** The Secret name for a state key (the controller's side of the round trip). */
export function stateSecretNameForKey(installationName: string, key: string): string {
  if (key.startsWith('deploy')) return templateStateSecretName(installationName, 'deploy', key.slice('deploy'.length));
  if (key.startsWith('export')) return templateStateSecretName(installationName, 'export', key.slice('export'.length));
  throw new RangeError(`not a template state key: ${key}`);
}

/** Decodes the Secret's "config" bytes; a missing Secret or key is the empty state {}. */
export function decodeTemplateState(raw: string | Uint8Array | undefined): AnyJSON {
  if (raw === undefined) return {};
  const text = typeof raw === 'string' ? raw : Buffer.from(raw).toString('utf8');
  if (text.trim() === '') return {};
  return parseYaml(text);
}

/** Encodes a state for the Secret's "config" key (compact JSON, as sigs.k8s.io/yaml produces). */
export function encodeTemplateState(state: AnyJSON): string {
  return goJSONMarshal(state);
}

/** The `state` an execution returned, or undefined when it returned none (then nothing is stored). */
export function extractState(output: AnyJSON): AnyJSON | undefined {
  if (!isObject(output)) return undefined;
  const s = output['state'];
  return s === undefined || s === null ? undefined : s;
}
