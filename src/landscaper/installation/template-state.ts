// Template state Secret I/O: the templating layer names the Secrets and encodes the state; here they are
// read before rendering and written (owned by the installation) after.
import type { KubeObject } from '../../apimachinery/object.ts';
import { DATA_OBJECT_SECRET_DATA_KEY } from '../api/constants.ts';
import type { Installation } from '../api/installation.ts';
import type { AnyJSON } from '../api/shared.ts';
import type { LoadedBlueprint } from '../blueprint/load.ts';
import { decodeTemplateState, encodeTemplateState, stateKey, stateSecretNameForKey, type TemplateStates } from '../templating/state.ts';
import { getOrUndefined, nameOf, namespaceOf, ownerRef } from './helpers.ts';
import { secretsResource } from '../../apimachinery/builtin-resources.ts';
import type { Deps } from './types.ts';

/** State keys of the executions that run in Init (deploy + subinstallation) or Completing (export). */
export function stateKeys(loaded: LoadedBlueprint, phase: 'init' | 'export'): string[] {
  const bp = loaded.blueprint;
  if (phase === 'export') return (bp.exportExecutions ?? []).map((e, i) => stateKey('exportExecutions', e, i));
  return [
    ...(bp.deployExecutions ?? []).map((e, i) => stateKey('deployExecutions', e, i)),
    ...(bp.subinstallationExecutions ?? []).map((e, i) => stateKey('subinstallationExecutions', e, i)),
  ];
}

export async function readStates(deps: Deps, inst: Installation, keys: readonly string[]): Promise<TemplateStates> {
  const states: TemplateStates = {};
  await Promise.all(
    keys.map(async (key) => {
      const secret = await getOrUndefined<KubeObject>(deps, secretsResource, namespaceOf(inst), stateSecretNameForKey(nameOf(inst), key));
      const raw = (secret?.['data'] as Record<string, string> | undefined)?.[DATA_OBJECT_SECRET_DATA_KEY];
      states[key] = decodeTemplateState(raw === undefined ? undefined : Buffer.from(raw, 'base64'));
    }),
  );
  return states;
}

export async function writeStates(deps: Deps, inst: Installation, states: { [key: string]: AnyJSON }): Promise<void> {
  const ns = namespaceOf(inst);
  await Promise.all(
    Object.entries(states).map(async ([key, state]) => {
      const name = stateSecretNameForKey(nameOf(inst), key);
      const data = { [DATA_OBJECT_SECRET_DATA_KEY]: Buffer.from(encodeTemplateState(state)).toString('base64') };
      const existing = await getOrUndefined<KubeObject>(deps, secretsResource, ns, name);
      if (existing === undefined) {
        await deps.client.create(secretsResource, { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: ns, ownerReferences: [ownerRef(inst, false)] }, type: 'Opaque', data });
      } else if (JSON.stringify(existing['data']) !== JSON.stringify(data)) {
        await deps.client.update(secretsResource, { ...existing, data });
      }
    }),
  );
}
