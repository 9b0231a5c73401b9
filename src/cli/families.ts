// The controller families Bosun ships: the one list that `--controllers`, `bosun manifests` and the CRDs
// `bosun up` installs derive from.
import type { KubeObject } from '../apimachinery/object.ts';
import { crdGroup, loadBosunCrds } from '../crds/index.ts';
import { CHART_CHAOS_CONFIG } from '../chaos/config.ts';
import { readChaosConfigFile } from '../chaos/config-file.ts';
import { chaosFamily, chaosFamilyWith } from '../chaos/family.ts';
import { landscaperFamily } from '../landscaper/family.ts';
import { terrakojoFamily } from '../terrakojo/family.ts';
import { workloadsFamily, workloadsFamilyWith } from '../workloads/family.ts';
import type { Family } from '../runtime/family.ts';

export const bosunFamilies: readonly Family[] = [chaosFamily, landscaperFamily, terrakojoFamily, workloadsFamily];

/** What the command line configures in the families: `--chaos-config FILE`, `--node-monitor-grace-period`. */
export interface FamilySettings {
  /** Upstream chaos-controller's config file (controller:, injector:, handler:), over its chart's values. */
  chaosConfigFile?: string;
  nodeMonitorGracePeriodMs?: number;
  /** Bosun's embedded control plane (`bosun up`), whose node agents are Bosun's. */
  embedded?: boolean;
}

/** The shipped families with the settings applied. */
export function configuredFamilies(settings: FamilySettings): Family[] {
  return bosunFamilies.map((family) => {
    if (family.name === 'chaos' && (settings.chaosConfigFile !== undefined || settings.embedded === true)) {
      const config = settings.chaosConfigFile !== undefined ? readChaosConfigFile(settings.chaosConfigFile, CHART_CHAOS_CONFIG) : CHART_CHAOS_CONFIG;
      return chaosFamilyWith(settings.embedded === true ? { ...config, injector: { ...config.injector, mountSysrq: false } } : config);
    }
    if (family.name === 'workloads' && settings.nodeMonitorGracePeriodMs !== undefined) return workloadsFamilyWith({ nodeLifecycle: { gracePeriodMs: settings.nodeMonitorGracePeriodMs } });
    return family;
  });
}

export class UnknownFamilyError extends Error {
  override readonly name = 'UnknownFamilyError' as const;
}

/** A family's CRDs do not match the manifests in crds/: a bug in the family, found before anything starts. */
export class FamilyCrdError extends Error {
  override readonly name = 'FamilyCrdError' as const;
}

/**
 * The families `names` selects from `available` (each once, in the order given). Without names: all of them on
 * Bosun's embedded control plane, all but the embedded-only ones (which a real cluster has its own of) elsewhere.
 */
export function selectFamilies(names: readonly string[] | undefined, available: readonly Family[] = bosunFamilies, where: { embedded: boolean } = { embedded: false }): Family[] {
  if (names === undefined) return available.filter((f) => where.embedded || f.embeddedOnly !== true);
  return [...new Set(names)].map((name) => {
    const family = available.find((f) => f.name === name);
    if (family) return family;
    const choices = `available: ${available.map((f) => f.name).join(', ') || 'none'}`;
    throw new UnknownFamilyError(`unknown controller family "${name}" (${choices})`);
  });
}

/** The CustomResourceDefinitions of the families, sorted by name, as crds/ defines them. */
export function familyCrds(families: readonly Family[]): KubeObject[] {
  const owner = new Map<string, Family>();
  for (const family of families) for (const name of family.crds) owner.set(name, family);
  const crds = loadBosunCrds().filter((crd) => owner.has(crd.metadata.name ?? ''));
  for (const [name, family] of owner) {
    const crd = crds.find((c) => c.metadata.name === name);
    if (!crd) throw new FamilyCrdError(`family ${family.name}: no manifest in crds/ defines ${name}`);
    const group = crdGroup(crd);
    if (group === undefined || !family.groups.includes(group)) throw new FamilyCrdError(`family ${family.name}: ${name} is in group ${group ?? '(none)'}, not one of the family's`);
  }
  return crds;
}
