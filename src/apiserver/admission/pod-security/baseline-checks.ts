// The baseline level of the Pod Security Standards, check by check as k8s.io/pod-security-admission/policy
// words them (up to the versions this server's minor, 1.32, evaluates).
import {
  containersOf,
  containersPhrase,
  goQuote,
  joinQuote,
  object,
  objects,
  pluralize,
  podSecurityContext,
  sortedSet,
  text,
  type Check,
  type CheckPod,
  type Json,
} from './pod-fields.ts';

const since = (minimum: number, check: CheckPod) => ({ minimum, check });

const hostNamespaces: CheckPod = ({ spec }) => {
  const shared = (['hostNetwork', 'hostPID', 'hostIPC'] as const).filter((field) => spec[field] === true).map((field) => `${field}=true`);
  return shared.length > 0 ? { reason: 'host namespaces', detail: shared.join(', ') } : undefined;
};

const privileged: CheckPod = ({ spec }) => {
  const bad = containersOf(spec).filter((c) => c.securityContext?.['privileged'] === true).map((c) => c.name);
  return bad.length > 0 ? { reason: 'privileged', detail: `${containersPhrase(bad)} must not set securityContext.privileged=true` } : undefined;
};

/** kubelet's (the container runtime's) default capabilities, the only ones baseline lets a container add. */
const DEFAULT_CAPABILITIES = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);

export function addedCapabilities(securityContext: Json | undefined): string[] {
  const add = object(securityContext?.['capabilities'])?.['add'];
  return Array.isArray(add) ? add.map((c) => String(c)) : [];
}

const capabilitiesBaseline: CheckPod = ({ spec }) => {
  const bad: string[] = [];
  const extra: string[] = [];
  for (const c of containersOf(spec)) {
    const beyond = addedCapabilities(c.securityContext).filter((cap) => !DEFAULT_CAPABILITIES.has(cap));
    if (beyond.length === 0) continue;
    bad.push(c.name);
    extra.push(...beyond);
  }
  if (bad.length === 0) return undefined;
  return { reason: 'non-default capabilities', detail: `${containersPhrase(bad)} must not include ${joinQuote(sortedSet(extra))} in securityContext.capabilities.add` };
};

const hostPathVolumes: CheckPod = ({ spec }) => {
  const bad = objects(spec['volumes']).filter((v) => v['hostPath'] !== undefined && v['hostPath'] !== null).map((v) => text(v['name']));
  return bad.length > 0 ? { reason: 'hostPath volumes', detail: `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)}` } : undefined;
};

const hostPorts: CheckPod = ({ spec }) => {
  const bad: string[] = [];
  const ports: string[] = [];
  for (const c of containersOf(spec)) {
    const used = objects(c.container['ports']).map((p) => p['hostPort']).filter((port) => typeof port === 'number' && port !== 0);
    if (used.length === 0) continue;
    bad.push(c.name);
    ports.push(...used.map(String));
  }
  if (bad.length === 0) return undefined;
  const unique = sortedSet(ports);
  return {
    reason: 'hostPort',
    detail: `${containersPhrase(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', unique.length)} ${unique.join(', ')}`,
  };
};

/** The pod and its containers that set a field to a forbidden value, as "pod and containers "a", "b"". */
export function setters(spec: Json, forbidden: (securityContext: Json) => boolean): string[] {
  const out: string[] = [];
  const pod = podSecurityContext(spec);
  if (pod && forbidden(pod)) out.push('pod');
  const bad = containersOf(spec).filter((c) => c.securityContext !== undefined && forbidden(c.securityContext)).map((c) => c.name);
  if (bad.length > 0) out.push(containersPhrase(bad));
  return out;
}

const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

const appArmorProfile: CheckPod = ({ spec, annotations }) => {
  const values: string[] = [];
  const forbidden = (sc: Json): boolean => {
    const profile = object(sc['appArmorProfile']);
    if (!profile) return false;
    const type = text(profile['type']);
    if (type === 'RuntimeDefault' || type === 'Localhost') return false;
    values.push(type);
    return true;
  };
  const bad = setters(spec, forbidden);
  const badValues = sortedSet(values);
  const badAnnotations = Object.entries(annotations)
    .filter(([key, value]) => key.startsWith(APPARMOR_ANNOTATION_PREFIX) && !(value === '' || value === 'runtime/default' || value.startsWith('localhost/')))
    .map(([key, value]) => `${key}=${goQuote(value)}`)
    .sort();
  if (badAnnotations.length > 0) bad.push(pluralize('annotation', 'annotations', badAnnotations.length));
  if (bad.length === 0) return undefined;
  const all = [...badValues, ...badAnnotations];
  return {
    reason: pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', all.length),
    detail: `${bad.join(' and ')} must not set AppArmor profile type to ${joinQuote(all)}`,
  };
};

function seLinuxOptions(allowedTypes: ReadonlySet<string>): CheckPod {
  return ({ spec }) => {
    const badTypes: string[] = [];
    let setUser = false;
    let setRole = false;
    const forbidden = (sc: Json): boolean => {
      const options = object(sc['seLinuxOptions']);
      if (!options) return false;
      let valid = true;
      const type = text(options['type']);
      if (!allowedTypes.has(type)) {
        valid = false;
        badTypes.push(type);
      }
      if (text(options['user']) !== '') {
        valid = false;
        setUser = true;
      }
      if (text(options['role']) !== '') {
        valid = false;
        setRole = true;
      }
      return !valid;
    };
    const bad = setters(spec, forbidden);
    if (bad.length === 0) return undefined;
    const types = sortedSet(badTypes);
    const data = [
      ...(types.length > 0 ? [`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`] : []),
      ...(setUser ? ['user may not be set'] : []),
      ...(setRole ? ['role may not be set'] : []),
    ];
    return { reason: 'seLinuxOptions', detail: `${bad.join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}` };
  };
}
const SELINUX_TYPES_1_0 = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
const SELINUX_TYPES_1_31 = new Set([...SELINUX_TYPES_1_0, 'container_engine_t']);

const procMount: CheckPod = ({ spec }) => {
  const bad: string[] = [];
  const types: string[] = [];
  for (const c of containersOf(spec)) {
    const value = c.securityContext?.['procMount'];
    if (value === undefined || value === null || value === 'Default') continue;
    bad.push(c.name);
    types.push(String(value));
  }
  if (bad.length === 0) return undefined;
  return { reason: 'procMount', detail: `${containersPhrase(bad)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}` };
};

export function validSeccompType(type: string): boolean {
  return type === 'Localhost' || type === 'RuntimeDefault';
}

const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_ANNOTATION_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';

/** Before 1.19 seccomp was set by annotations. */
const seccompAnnotations: CheckPod = ({ spec, annotations }) => {
  const valid = (v: string) => v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/');
  const keys = [SECCOMP_POD_ANNOTATION, ...containersOf(spec).map((c) => `${SECCOMP_CONTAINER_ANNOTATION_PREFIX}${c.name}`)];
  const forbidden = sortedSet(keys.filter((key) => annotations[key] !== undefined && !valid(annotations[key])).map((key) => `${key}=${goQuote(annotations[key] ?? '')}`));
  if (forbidden.length === 0) return undefined;
  return { reason: 'seccompProfile', detail: `forbidden ${pluralize('annotation', 'annotations', forbidden.length)} ${forbidden.join(', ')}` };
};

/** The seccomp profile types that are set and not allowed, on the pod and its containers. */
export function forbiddenSeccompSetters(spec: Json): { setters: string[]; values: string[] } {
  const values: string[] = [];
  const bad = setters(spec, (sc) => {
    const profile = object(sc['seccompProfile']);
    if (!profile || validSeccompType(text(profile['type']))) return false;
    values.push(text(profile['type']));
    return true;
  });
  return { setters: bad, values: sortedSet(values) };
}

const seccompProfileBaseline: CheckPod = ({ spec }) => {
  const { setters: bad, values } = forbiddenSeccompSetters(spec);
  if (bad.length === 0) return undefined;
  return { reason: 'seccompProfile', detail: `${bad.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(values)}` };
};

function sysctls(allowed: ReadonlySet<string>): CheckPod {
  return ({ spec }) => {
    const forbidden = objects(podSecurityContext(spec)?.['sysctls'])
      .map((s) => text(s['name']))
      .filter((name) => !allowed.has(name));
    return forbidden.length > 0 ? { reason: 'forbidden sysctls', detail: forbidden.join(', ') } : undefined;
  };
}
const SYSCTLS_1_0 = new Set(['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start']);
const SYSCTLS_1_27 = new Set([...SYSCTLS_1_0, 'net.ipv4.ip_local_reserved_ports']);
const SYSCTLS_1_29 = new Set([...SYSCTLS_1_27, 'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes']);
const SYSCTLS_1_32 = new Set([...SYSCTLS_1_29, 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem']);

const windowsHostProcess: CheckPod = ({ spec }) => {
  const bad = setters(spec, (sc) => object(sc['windowsOptions'])?.['hostProcess'] === true);
  return bad.length > 0 ? { reason: 'hostProcess', detail: `${bad.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true` } : undefined;
};

export const SECCOMP_BASELINE_ID = 'seccompProfile_baseline';
export const CAPABILITIES_BASELINE_ID = 'capabilities_baseline';
export const HOST_PATH_VOLUMES_ID = 'hostPathVolumes';

export const baselineChecks: readonly Check[] = [
  { id: 'hostNamespaces', level: 'baseline', versions: [since(0, hostNamespaces)] },
  { id: 'privileged', level: 'baseline', versions: [since(0, privileged)] },
  { id: CAPABILITIES_BASELINE_ID, level: 'baseline', versions: [since(0, capabilitiesBaseline)] },
  { id: HOST_PATH_VOLUMES_ID, level: 'baseline', versions: [since(0, hostPathVolumes)] },
  { id: 'hostPorts', level: 'baseline', versions: [since(0, hostPorts)] },
  { id: 'appArmorProfile', level: 'baseline', versions: [since(0, appArmorProfile)] },
  { id: 'seLinuxOptions', level: 'baseline', versions: [since(0, seLinuxOptions(SELINUX_TYPES_1_0)), since(31, seLinuxOptions(SELINUX_TYPES_1_31))] },
  { id: 'procMount', level: 'baseline', versions: [since(0, procMount)] },
  { id: SECCOMP_BASELINE_ID, level: 'baseline', versions: [since(0, seccompAnnotations), since(19, seccompProfileBaseline)] },
  {
    id: 'sysctls',
    level: 'baseline',
    versions: [since(0, sysctls(SYSCTLS_1_0)), since(27, sysctls(SYSCTLS_1_27)), since(29, sysctls(SYSCTLS_1_29)), since(32, sysctls(SYSCTLS_1_32))],
  },
  { id: 'windowsHostProcess', level: 'baseline', versions: [since(0, windowsHostProcess)] },
];
