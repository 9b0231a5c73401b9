// The restricted level of the Pod Security Standards beyond baseline, check by check as
// k8s.io/pod-security-admission/policy words them (up to the versions this server's minor, 1.32, evaluates).
// Three of them replace a baseline check (overrides): capabilities, volumes and seccomp.
import { addedCapabilities, CAPABILITIES_BASELINE_ID, forbiddenSeccompSetters, HOST_PATH_VOLUMES_ID, SECCOMP_BASELINE_ID, setters } from './baseline-checks.ts';
import { containersOf, containersPhrase, isWindows, joinQuote, object, objects, pluralize, podSecurityContext, sortedSet, strings, text, type Check, type CheckPod } from './pod-fields.ts';

/** From 1.25 a Windows pod is not checked for what only Linux enforces. */
const exceptWindows = (check: CheckPod): CheckPod => (pod) => (isWindows(pod.spec) ? undefined : check(pod));

const allowPrivilegeEscalation: CheckPod = ({ spec }) => {
  const bad = containersOf(spec).filter((c) => c.securityContext?.['allowPrivilegeEscalation'] !== false).map((c) => c.name);
  if (bad.length === 0) return undefined;
  return { reason: 'allowPrivilegeEscalation != false', detail: `${containersPhrase(bad)} must set securityContext.allowPrivilegeEscalation=false` };
};

const capabilitiesRestricted: CheckPod = ({ spec }) => {
  const missingDropAll: string[] = [];
  const addingForbidden: string[] = [];
  const forbidden: string[] = [];
  for (const c of containersOf(spec)) {
    const capabilities = object(c.securityContext?.['capabilities']);
    if (!capabilities) {
      missingDropAll.push(c.name);
      continue;
    }
    if (!strings(capabilities['drop']).includes('ALL')) missingDropAll.push(c.name);
    const added = addedCapabilities(c.securityContext).filter((cap) => cap !== 'NET_BIND_SERVICE');
    if (added.length > 0) {
      addingForbidden.push(c.name);
      forbidden.push(...added);
    }
  }
  const details = [
    ...(missingDropAll.length > 0 ? [`${containersPhrase(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`] : []),
    ...(addingForbidden.length > 0 ? [`${containersPhrase(addingForbidden)} must not include ${joinQuote(sortedSet(forbidden))} in securityContext.capabilities.add`] : []),
  ];
  return details.length > 0 ? { reason: 'unrestricted capabilities', detail: details.join('; ') } : undefined;
};

const ALLOWED_VOLUME_SOURCES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret'];
/** The volume sources restricted names, in the order it tests them. */
const RESTRICTED_VOLUME_SOURCES = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd', 'flexVolume', 'cinder', 'cephfs',
  'flocker', 'fc', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO', 'storageos',
];

const restrictedVolumes: CheckPod = ({ spec }) => {
  const bad: string[] = [];
  const types: string[] = [];
  const present = (volume: Record<string, unknown>, source: string) => volume[source] !== undefined && volume[source] !== null;
  for (const volume of objects(spec['volumes'])) {
    if (ALLOWED_VOLUME_SOURCES.some((source) => present(volume, source))) continue;
    bad.push(text(volume['name']));
    types.push(RESTRICTED_VOLUME_SOURCES.find((source) => present(volume, source)) ?? 'unknown');
  }
  if (bad.length === 0) return undefined;
  const unique = sortedSet(types);
  return {
    reason: 'restricted volume types',
    detail: `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('restricted volume type', 'restricted volume types', unique.length)} ${joinQuote(unique)}`,
  };
};

const runAsNonRoot: CheckPod = ({ spec }) => {
  const podValue = podSecurityContext(spec)?.['runAsNonRoot'];
  const bad = podValue === false ? ['pod'] : [];
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containersOf(spec)) {
    const value = c.securityContext?.['runAsNonRoot'];
    if (typeof value === 'boolean') {
      if (!value) explicit.push(c.name);
    } else if (podValue !== true) implicit.push(c.name);
  }
  if (explicit.length > 0) bad.push(containersPhrase(explicit));
  if (bad.length > 0) return { reason: 'runAsNonRoot != true', detail: `${bad.join(' and ')} must not set securityContext.runAsNonRoot=false` };
  if (implicit.length > 0) return { reason: 'runAsNonRoot != true', detail: `pod or ${containersPhrase(implicit)} must set securityContext.runAsNonRoot=true` };
  return undefined;
};

const runAsUser: CheckPod = ({ spec }) => {
  const bad = setters(spec, (sc) => sc['runAsUser'] === 0);
  return bad.length > 0 ? { reason: 'runAsUser=0', detail: `${bad.join(' and ')} must not set runAsUser=0` } : undefined;
};

const seccompProfileRestricted: CheckPod = ({ spec }) => {
  const { setters: bad, values } = forbiddenSeccompSetters(spec);
  if (bad.length > 0) return { reason: 'seccompProfile', detail: `${bad.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(values)}` };
  const podSet = object(podSecurityContext(spec)?.['seccompProfile']) !== undefined;
  const implicit = podSet ? [] : containersOf(spec).filter((c) => object(c.securityContext?.['seccompProfile']) === undefined).map((c) => c.name);
  if (implicit.length === 0) return undefined;
  return { reason: 'seccompProfile', detail: `pod or ${containersPhrase(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"` };
};

export const restrictedChecks: readonly Check[] = [
  {
    id: 'allowPrivilegeEscalation',
    level: 'restricted',
    versions: [
      { minimum: 8, check: allowPrivilegeEscalation },
      { minimum: 25, check: exceptWindows(allowPrivilegeEscalation) },
    ],
  },
  {
    id: 'capabilities_restricted',
    level: 'restricted',
    versions: [
      { minimum: 22, check: capabilitiesRestricted, overrides: [CAPABILITIES_BASELINE_ID] },
      { minimum: 25, check: exceptWindows(capabilitiesRestricted), overrides: [CAPABILITIES_BASELINE_ID] },
    ],
  },
  { id: 'restrictedVolumes', level: 'restricted', versions: [{ minimum: 0, check: restrictedVolumes, overrides: [HOST_PATH_VOLUMES_ID] }] },
  { id: 'runAsNonRoot', level: 'restricted', versions: [{ minimum: 0, check: runAsNonRoot }] },
  { id: 'runAsUser', level: 'restricted', versions: [{ minimum: 23, check: runAsUser }] },
  {
    id: 'seccompProfile_restricted',
    level: 'restricted',
    versions: [
      { minimum: 19, check: seccompProfileRestricted, overrides: [SECCOMP_BASELINE_ID] },
      { minimum: 25, check: exceptWindows(seccompProfileRestricted), overrides: [SECCOMP_BASELINE_ID] },
    ],
  },
];
