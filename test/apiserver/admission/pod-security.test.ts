// Pod Security Admission as kube-apiserver runs it: every check of the baseline and restricted levels with a
// refused and an allowed pod and kube's messages, the three modes and their labels (levels and versions), the
// cluster default, pod templates (warned, not refused), namespace label validation and the warning about
// existing pods when enforce is tightened. The embedded server over HTTP, and the real kubectl.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PodSecurityAuditEvent } from '../../../src/apiserver/admission/pod-security/pod-security-admission.ts';
import { startTestServer, type TestServer } from '../../helpers/api-server.ts';
import { kubectlFor } from '../../helpers/kubectl.ts';

type Body = Record<string, any>;

/** A pod that passes restricted: each restricted case breaks one thing of it. */
function restrictedPod(change: (spec: Body, container: Body) => void = () => {}): Body {
  const container: Body = { name: 'c', image: 'busybox', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } };
  const spec: Body = { securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } }, containers: [container] };
  change(spec, container);
  return spec;
}

function plainPod(change: (spec: Body, container: Body) => void = () => {}): Body {
  const container: Body = { name: 'c', image: 'busybox' };
  const spec: Body = { containers: [container] };
  change(spec, container);
  return spec;
}

interface Case {
  check: string;
  refused: Body;
  allowed: Body;
  /** The reason and detail after `violates PodSecurity "<level>:latest": `. */
  message: string;
}

const baselineCases: Case[] = [
  {
    check: 'hostNamespaces',
    refused: plainPod((s) => Object.assign(s, { hostNetwork: true, hostPID: true, hostIPC: true })),
    allowed: plainPod((s) => Object.assign(s, { hostNetwork: false, hostPID: false })),
    message: 'host namespaces (hostNetwork=true, hostPID=true, hostIPC=true)',
  },
  {
    check: 'privileged',
    refused: plainPod((_, c) => (c['securityContext'] = { privileged: true })),
    allowed: plainPod((_, c) => (c['securityContext'] = { privileged: false })),
    message: 'privileged (container "c" must not set securityContext.privileged=true)',
  },
  {
    check: 'capabilities_baseline',
    refused: plainPod((_, c) => (c['securityContext'] = { capabilities: { add: ['SYS_ADMIN', 'NET_RAW', 'CHOWN'] } })),
    allowed: plainPod((_, c) => (c['securityContext'] = { capabilities: { add: ['CHOWN', 'NET_BIND_SERVICE', 'KILL'] } })),
    message: 'non-default capabilities (container "c" must not include "NET_RAW", "SYS_ADMIN" in securityContext.capabilities.add)',
  },
  {
    check: 'hostPathVolumes',
    refused: plainPod((s) => (s['volumes'] = [{ name: 'host', hostPath: { path: '/' } }, { name: 'tmp', emptyDir: {} }, { name: 'etc', hostPath: { path: '/etc' } }])),
    allowed: plainPod((s) => (s['volumes'] = [{ name: 'tmp', emptyDir: {} }])),
    message: 'hostPath volumes (volumes "host", "etc")',
  },
  {
    check: 'hostPorts',
    refused: plainPod((_, c) => (c['ports'] = [{ containerPort: 80, hostPort: 8080 }, { containerPort: 443, hostPort: 10443 }])),
    allowed: plainPod((_, c) => (c['ports'] = [{ containerPort: 80 }])),
    message: 'hostPort (container "c" uses hostPorts 10443, 8080)',
  },
  {
    check: 'appArmorProfile',
    refused: plainPod((s) => (s['securityContext'] = { appArmorProfile: { type: 'Unconfined' } })),
    allowed: plainPod((s) => (s['securityContext'] = { appArmorProfile: { type: 'RuntimeDefault' } })),
    message: 'forbidden AppArmor profile (pod must not set AppArmor profile type to "Unconfined")',
  },
  {
    check: 'seLinuxOptions',
    refused: plainPod((_, c) => (c['securityContext'] = { seLinuxOptions: { type: 'spc_t', user: 'system_u' } })),
    allowed: plainPod((_, c) => (c['securityContext'] = { seLinuxOptions: { type: 'container_engine_t', level: 's0:c123,c456' } })),
    message: 'seLinuxOptions (container "c" set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set)',
  },
  {
    check: 'procMount',
    refused: plainPod((_, c) => (c['securityContext'] = { procMount: 'Unmasked' })),
    allowed: plainPod((_, c) => (c['securityContext'] = { procMount: 'Default' })),
    message: 'procMount (container "c" must not set securityContext.procMount to "Unmasked")',
  },
  {
    check: 'seccompProfile_baseline',
    refused: plainPod((s) => (s['securityContext'] = { seccompProfile: { type: 'Unconfined' } })),
    allowed: plainPod((s, c) => {
      s['securityContext'] = { seccompProfile: { type: 'RuntimeDefault' } };
      c['securityContext'] = { seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/audit.json' } };
    }),
    message: 'seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")',
  },
  {
    check: 'sysctls',
    refused: plainPod((s) => (s['securityContext'] = { sysctls: [{ name: 'kernel.msgmax', value: '65536' }, { name: 'net.ipv4.tcp_syncookies', value: '1' }] })),
    // tcp_rmem is allowed from v1.32 on, the server's version (latest).
    allowed: plainPod((s) => (s['securityContext'] = { sysctls: [{ name: 'net.ipv4.tcp_rmem', value: '4096 87380 16777216' }] })),
    message: 'forbidden sysctls (kernel.msgmax)',
  },
  {
    check: 'windowsHostProcess',
    refused: plainPod((s, c) => {
      s['securityContext'] = { windowsOptions: { hostProcess: true } };
      c['securityContext'] = { windowsOptions: { hostProcess: true } };
    }),
    allowed: plainPod((_, c) => (c['securityContext'] = { windowsOptions: { hostProcess: false } })),
    message: 'hostProcess (pod and container "c" must not set securityContext.windowsOptions.hostProcess=true)',
  },
];

const restrictedCases: Case[] = [
  {
    check: 'allowPrivilegeEscalation',
    refused: restrictedPod((_, c) => delete c['securityContext']['allowPrivilegeEscalation']),
    allowed: restrictedPod(),
    message: 'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false)',
  },
  {
    check: 'capabilities_restricted',
    refused: restrictedPod((_, c) => (c['securityContext']['capabilities'] = { add: ['CHOWN', 'NET_BIND_SERVICE'] })),
    allowed: restrictedPod((_, c) => (c['securityContext']['capabilities'] = { drop: ['ALL'], add: ['NET_BIND_SERVICE'] })),
    message: 'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]; container "c" must not include "CHOWN" in securityContext.capabilities.add)',
  },
  {
    check: 'restrictedVolumes',
    refused: restrictedPod((s) => (s['volumes'] = [{ name: 'data', nfs: { server: 'nfs.example', path: '/x' } }, { name: 'root', hostPath: { path: '/' } }])),
    allowed: restrictedPod((s) => (s['volumes'] = [{ name: 'cm', configMap: { name: 'x' } }, { name: 'tmp', emptyDir: {} }, { name: 'p', projected: { sources: [] } }])),
    message: 'restricted volume types (volumes "data", "root" use restricted volume types "hostPath", "nfs")',
  },
  {
    check: 'runAsNonRoot',
    refused: restrictedPod((s) => (s['securityContext']['runAsNonRoot'] = false)),
    allowed: restrictedPod((s, c) => {
      delete s['securityContext']['runAsNonRoot'];
      c['securityContext']['runAsNonRoot'] = true;
    }),
    message: 'runAsNonRoot != true (pod must not set securityContext.runAsNonRoot=false)',
  },
  {
    check: 'runAsUser',
    refused: restrictedPod((_, c) => (c['securityContext']['runAsUser'] = 0)),
    allowed: restrictedPod((_, c) => (c['securityContext']['runAsUser'] = 1000)),
    message: 'runAsUser=0 (container "c" must not set runAsUser=0)',
  },
  {
    check: 'seccompProfile_restricted',
    refused: restrictedPod((s) => delete s['securityContext']['seccompProfile']),
    allowed: restrictedPod((s, c) => {
      delete s['securityContext']['seccompProfile'];
      c['securityContext']['seccompProfile'] = { type: 'RuntimeDefault' };
    }),
    message: 'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  },
];

describe('Pod Security Admission', () => {
  let server: TestServer;
  const audits: PodSecurityAuditEvent[] = [];
  const send = async (method: string, path: string, body?: unknown, contentType = 'application/json') => {
    const res = await server.api(path, { method, headers: { 'content-type': contentType }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, body: (await res.json()) as Body, warnings: res.headers.get('warning') };
  };
  const namespace = async (name: string, labels: Record<string, string> = {}) => {
    const created = await send('POST', '/api/v1/namespaces', { metadata: { name, labels } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
  };
  const createPod = (ns: string, name: string, spec: Body, metadata: Body = {}) => send('POST', `/api/v1/namespaces/${ns}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name, ...metadata }, spec });

  before(async () => {
    server = await startTestServer({ onPodSecurityAudit: (event) => audits.push(event) });
    await namespace('psa-baseline', { 'pod-security.kubernetes.io/enforce': 'baseline' });
    await namespace('psa-restricted', { 'pod-security.kubernetes.io/enforce': 'restricted' });
  });
  after(async () => {
    await server.close();
  });

  for (const [level, cases] of [['baseline', baselineCases], ['restricted', restrictedCases]] as const) {
    for (const c of cases) {
      test(`${level}: ${c.check} refuses with kube's message and allows what the level allows`, async () => {
        const name = `${c.check.toLowerCase().replace(/_/g, '-')}`;
        const refused = await createPod(`psa-${level}`, `${name}-refused`, c.refused);
        assert.equal(refused.status, 403, JSON.stringify(refused.body));
        assert.deepEqual(refused.body, {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: `pods "${name}-refused" is forbidden: violates PodSecurity "${level}:latest": ${c.message}`,
          reason: 'Forbidden',
          details: { name: `${name}-refused`, group: '', kind: 'pods' },
          code: 403,
        });
        const allowed = await createPod(`psa-${level}`, `${name}-allowed`, c.allowed);
        assert.equal(allowed.status, 201, JSON.stringify(allowed.body));
        assert.equal(allowed.warnings, null);
      });
    }
  }

  test('the annotations of old clusters: AppArmor and (before v1.19) seccomp', async () => {
    const appArmor = await createPod('psa-baseline', 'apparmor-annotation', plainPod(), {
      annotations: { 'container.apparmor.security.beta.kubernetes.io/c': 'unconfined', 'container.apparmor.security.beta.kubernetes.io/d': 'localhost/mine' },
    });
    assert.equal(appArmor.body['message'], 'pods "apparmor-annotation" is forbidden: violates PodSecurity "baseline:latest": forbidden AppArmor profile (annotation must not set AppArmor profile type to "container.apparmor.security.beta.kubernetes.io/c="unconfined"")');
    await namespace('psa-v1-18', { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/enforce-version': 'v1.18' });
    const seccomp = await createPod('psa-v1-18', 'seccomp-annotation', plainPod(), { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } });
    assert.equal(seccomp.body['message'], 'pods "seccomp-annotation" is forbidden: violates PodSecurity "baseline:v1.18": seccompProfile (forbidden annotation seccomp.security.alpha.kubernetes.io/pod="unconfined")');
  });

  test('several failed checks are listed in kube\'s order, every container named', async () => {
    const spec = restrictedPod((s, c) => {
      s['hostNetwork'] = true;
      s['initContainers'] = [{ name: 'init', image: 'busybox', securityContext: { privileged: true, runAsUser: 0 } }];
      c['securityContext'] = { capabilities: { add: ['SYS_ADMIN'] } };
    });
    const refused = await createPod('psa-restricted', 'many', spec);
    assert.equal(
      refused.body['message'],
      'pods "many" is forbidden: violates PodSecurity "restricted:latest": host namespaces (hostNetwork=true), privileged (container "init" must not set securityContext.privileged=true), ' +
        'allowPrivilegeEscalation != false (containers "init", "c" must set securityContext.allowPrivilegeEscalation=false), ' +
        'unrestricted capabilities (containers "init", "c" must set securityContext.capabilities.drop=["ALL"]; container "c" must not include "SYS_ADMIN" in securityContext.capabilities.add), ' +
        'runAsUser=0 (container "init" must not set runAsUser=0)',
    );
  });

  test('a version label evaluates the checks of that version: runAsUser=0 is checked from v1.23 on', async () => {
    await namespace('psa-v1-22', { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'v1.22' });
    const root = restrictedPod((_, c) => (c['securityContext']['runAsUser'] = 0));
    assert.equal((await createPod('psa-v1-22', 'root', root)).status, 201);
    // A version newer than the server evaluates as the server's own (latest).
    await namespace('psa-v1-99', { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'v1.99' });
    const refused = await createPod('psa-v1-99', 'root', root);
    assert.equal(refused.body['message'], 'pods "root" is forbidden: violates PodSecurity "restricted:v1.99": runAsUser=0 (container "c" must not set runAsUser=0)');
  });

  test('the cluster default is baseline: a namespace without labels refuses host access, a privileged namespace allows it', async () => {
    const refused = await createPod('default', 'host-net', plainPod((s) => (s['hostNetwork'] = true)));
    assert.equal(refused.body['message'], 'pods "host-net" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true)');
    await namespace('psa-privileged', { 'pod-security.kubernetes.io/enforce': 'privileged' });
    const allowed = await createPod('psa-privileged', 'host-net', plainPod((s) => Object.assign(s, { hostNetwork: true, volumes: [{ name: 'root', hostPath: { path: '/' } }] })));
    assert.equal(allowed.status, 201, JSON.stringify(allowed.body));
    // kube-system is the control plane's: trusted.
    const ns = await send('GET', '/api/v1/namespaces/kube-system');
    assert.equal(ns.body['metadata']['labels']['pod-security.kubernetes.io/enforce'], 'privileged');
  });

  test('warn answers a Warning header and audit reports the violation; neither refuses', async () => {
    await namespace('psa-warn', { 'pod-security.kubernetes.io/warn': 'restricted', 'pod-security.kubernetes.io/audit': 'restricted', 'pod-security.kubernetes.io/audit-version': 'v1.30' });
    audits.length = 0;
    const created = await createPod('psa-warn', 'lax', plainPod());
    assert.equal(created.status, 201);
    const detail =
      'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
      'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';
    assert.equal(created.warnings, `299 - ${JSON.stringify(`would violate PodSecurity "restricted:latest": ${detail}`)}`);
    assert.deepEqual(audits, [
      {
        resource: 'pods',
        namespace: 'psa-warn',
        name: 'lax',
        operation: 'CREATE',
        annotations: { 'pod-security.kubernetes.io/enforce-policy': 'baseline:latest', 'pod-security.kubernetes.io/audit-violations': `would violate PodSecurity "restricted:v1.30": ${detail}` },
      },
    ]);
  });

  test('pod templates of workloads are warned about, not refused; their pods are', async () => {
    const template = { metadata: { labels: { app: 'web' } }, spec: plainPod((s) => (s['hostNetwork'] = true)) };
    const deployment = await send('POST', '/apis/apps/v1/namespaces/psa-baseline/deployments', {
      metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } }, template },
    });
    assert.equal(deployment.status, 201, JSON.stringify(deployment.body));
    assert.equal(deployment.warnings, `299 - ${JSON.stringify('would violate PodSecurity "baseline:latest": host namespaces (hostNetwork=true)')}`);
    const job = await send('POST', '/apis/batch/v1/namespaces/psa-baseline/jobs', { metadata: { name: 'once' }, spec: { template: { spec: { ...template.spec, restartPolicy: 'Never' } } } });
    assert.equal(job.status, 201, JSON.stringify(job.body));
    assert.match(job.warnings ?? '', /would violate PodSecurity \\"baseline:latest\\": host namespaces \(hostNetwork=true\)/);
    // A change that leaves the template alone is not evaluated again.
    const scaled = await send('PATCH', '/apis/apps/v1/namespaces/psa-baseline/deployments/web', { spec: { replicas: 3 } }, 'application/merge-patch+json');
    assert.equal(scaled.status, 200);
    assert.equal(scaled.warnings, null);
  });

  test('namespace labels must parse (kube\'s 422), and tightening enforce warns about the pods already there', async () => {
    const bad = await send('POST', '/api/v1/namespaces', { metadata: { name: 'psa-bad', labels: { 'pod-security.kubernetes.io/enforce': 'strict', 'pod-security.kubernetes.io/warn-version': '1.25' } } });
    assert.equal(bad.status, 422);
    assert.equal(
      bad.body['message'],
      'Namespace "psa-bad" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "1.25": must be "latest" or "v1.x"]',
    );
    await namespace('psa-tighten', { 'pod-security.kubernetes.io/enforce': 'privileged' });
    for (const name of ['host-a', 'host-b', 'host-c']) assert.equal((await createPod('psa-tighten', name, plainPod((s) => (s['hostPID'] = true)))).status, 201);
    assert.equal((await createPod('psa-tighten', 'root', plainPod((_, c) => (c['securityContext'] = { privileged: true })))).status, 201);
    assert.equal((await createPod('psa-tighten', 'fine', plainPod())).status, 201);
    const tightened = await send('PATCH', '/api/v1/namespaces/psa-tighten', { metadata: { labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } }, 'application/merge-patch+json');
    assert.equal(tightened.status, 200);
    assert.equal(
      tightened.warnings,
      [
        'existing pods in namespace "psa-tighten" violate the new PodSecurity enforce level "baseline:latest"',
        'host-a (and 2 other pods): host namespaces',
        'root: privileged',
      ]
        .map((w) => `299 - ${JSON.stringify(w)}`)
        .join(', '),
    );
    // Pods already there stay; new ones are refused.
    assert.equal((await createPod('psa-tighten', 'host-d', plainPod((s) => (s['hostPID'] = true)))).status, 403);
    const relaxed = await send('PATCH', '/api/v1/namespaces/psa-tighten', { metadata: { labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } } }, 'application/merge-patch+json');
    assert.equal(relaxed.warnings, null);
  });

  test('updates: only a changed image is evaluated again, status and binding never', async () => {
    await namespace('psa-updates', { 'pod-security.kubernetes.io/enforce': 'privileged' });
    assert.equal((await createPod('psa-updates', 'p', plainPod((s) => (s['hostIPC'] = true)))).status, 201);
    await send('PATCH', '/api/v1/namespaces/psa-updates', { metadata: { labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } }, 'application/merge-patch+json');
    const labelled = await send('PATCH', '/api/v1/namespaces/psa-updates/pods/p', { metadata: { labels: { a: 'b' } } }, 'application/merge-patch+json');
    assert.equal(labelled.status, 200, JSON.stringify(labelled.body));
    const status = await send('PATCH', '/api/v1/namespaces/psa-updates/pods/p/status', { status: { message: 'x' } }, 'application/merge-patch+json');
    assert.equal(status.status, 200, JSON.stringify(status.body));
    const image = await send('PATCH', '/api/v1/namespaces/psa-updates/pods/p', { spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] } }, 'application/strategic-merge-patch+json');
    assert.equal(image.status, 403);
    assert.equal(image.body['message'], 'pods "p" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostIPC=true)');
  });

  test('a server started with --pod-security privileged admits host access where no label says otherwise', async () => {
    const lax = await startTestServer({ podSecurity: 'privileged' });
    try {
      const res = await lax.api('/api/v1/namespaces/default/pods', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ metadata: { name: 'host' }, spec: plainPod((s) => (s['hostNetwork'] = true)) }) });
      assert.equal(res.status, 201, await res.text());
    } finally {
      await lax.close();
    }
  });

  test('kubectl shows the Forbidden message and the Warning line', async () => {
    const kubectl = kubectlFor(server.kubeconfigFile);
    const manifest = (name: string, ns: string, spec: Body) => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns }, spec });
    const refused = await kubectl(['apply', '-f', '-'], manifest('kubectl-root', 'psa-restricted', restrictedPod((_, c) => (c['securityContext']['runAsUser'] = 0))));
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr.trim(),
      'Error from server (Forbidden): error when creating "STDIN": pods "kubectl-root" is forbidden: violates PodSecurity "restricted:latest": runAsUser=0 (container "c" must not set runAsUser=0)',
    );
    const warned = await kubectl(['apply', '-f', '-'], manifest('kubectl-lax', 'psa-warn', plainPod()));
    assert.equal(warned.code, 0, warned.stderr);
    assert.match(warned.stderr, /^Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false \(container "c" must set securityContext.allowPrivilegeEscalation=false\), /m);
    assert.match(warned.stdout, /pod\/kubectl-lax created/);
  });
});

describe('finding 5: enforce=restricted on a namespace is honoured', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  test('hostPath /, hostNetwork, runAsUser: 0 and SYS_ADMIN pods are all refused', async () => {
    const create = async (path: string, body: Body) => {
      const res = await server.api(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Body };
    };
    assert.equal((await create('/api/v1/namespaces', { metadata: { name: 'locked', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } })).status, 201);
    const attempts: Record<string, Body> = {
      'host-root': { volumes: [{ name: 'root', hostPath: { path: '/' } }], containers: [{ name: 'c', image: 'busybox', volumeMounts: [{ name: 'root', mountPath: '/host' }] }] },
      'host-network': { hostNetwork: true, containers: [{ name: 'c', image: 'busybox' }] },
      'run-as-root': { containers: [{ name: 'c', image: 'busybox', securityContext: { runAsUser: 0 } }] },
      'sys-admin': { containers: [{ name: 'c', image: 'busybox', securityContext: { runAsUser: 0, capabilities: { add: ['SYS_ADMIN'] } } }] },
    };
    for (const [name, spec] of Object.entries(attempts)) {
      const res = await create('/api/v1/namespaces/locked/pods', { metadata: { name }, spec });
      assert.equal(res.status, 403, `${name}: ${JSON.stringify(res.body)}`);
      assert.match(res.body['message'], new RegExp(`^pods "${name}" is forbidden: violates PodSecurity "restricted:latest": `));
    }
    const pods = await server.json<{ items: unknown[] }>('/api/v1/namespaces/locked/pods');
    assert.deepEqual(pods.items, []);
  });
});
