// Each kind's injector subcommand and flags (upstream's GenerateArgs of api/v1beta1/<kind>.go), spelled as the
// injector parses them.
import type { DisruptionKindName } from '../api/constants.ts';
import type { DisruptionSpec, NetworkDisruptionHostSpec } from '../api/types.ts';
import { formatDuration } from '../../apimachinery/duration.ts';
import { durationNs, items } from '../validation/values.ts';

const int = (n: number | undefined): string => String(Math.trunc(n ?? 0));

function hostArg(h: NetworkDisruptionHostSpec): string {
  return `${h.host ?? ''};${int(h.port)};${h.protocol ?? ''};${h.flow ?? ''};${h.connState ?? ''};${h.dnsResolver ?? ''};${h.percentage ?? 100}`;
}

function goDurationOf(value: Parameters<typeof durationNs>[0]): string | undefined {
  const parsed = durationNs(value);
  return parsed.ok && parsed.value > 0n ? formatDuration(parsed.value) : undefined;
}

/** The subcommand and flags of one kind; the kind must be set in spec. */
export function kindArgs(kind: DisruptionKindName, spec: DisruptionSpec): string[] {
  switch (kind) {
    case 'network-disruption': {
      const n = spec.network ?? {};
      const args = ['network-disruption', '--corrupt', int(n.corrupt), '--drop', int(n.drop), '--duplicate', int(n.duplicate), '--delay', int(n.delay), '--delay-jitter', int(n.delayJitter), '--bandwidth-limit', int(n.bandwidthLimit)];
      for (const h of items(n.hosts)) args.push('--hosts', hostArg(h));
      for (const h of items(n.allowedHosts)) args.push('--allowed-hosts', hostArg(h));
      for (const s of items(n.services)) {
        const ports = items(s.ports).map((p) => `;${int(p.port)}-${p.name ?? ''}`).join('');
        args.push('--services', `${s.name};${s.namespace}${ports};${s.percentage ?? 100}`);
      }
      if (n.http) {
        for (const path of items(n.http.paths)) args.push('--path', path);
        for (const method of items(n.http.methods)) args.push('--method', method);
      }
      return args;
    }
    case 'node-failure':
      return ['node-failure', 'inject', ...(spec.nodeFailure?.shutdown ? ['--shutdown'] : [])];
    case 'container-failure':
      return ['container-failure', ...(spec.containerFailure?.forced ? ['--forced'] : [])];
    case 'cpu-pressure': {
      const count = spec.cpuPressure?.count;
      return ['cpu-pressure', '--count', count === undefined || count === null ? '100%' : String(count)];
    }
    case 'memory-pressure': {
      const m = spec.memoryPressure;
      const ramp = goDurationOf(m?.rampDuration);
      return ['memory-pressure', '--target-percent', m?.targetPercent ?? '', ...(ramp ? ['--ramp-duration', ramp] : [])];
    }
    case 'disk-pressure': {
      const d = spec.diskPressure;
      const args = ['disk-pressure', '--path', d?.path ?? ''];
      if (d?.throttling.readBytesPerSec !== undefined) args.push('--read-bytes-per-sec', int(d.throttling.readBytesPerSec));
      if (d?.throttling.writeBytesPerSec !== undefined) args.push('--write-bytes-per-sec', int(d.throttling.writeBytesPerSec));
      return args;
    }
    case 'disk-failure': {
      const d = spec.diskFailure;
      const args = ['disk-failure'];
      for (const path of items(d?.paths)) args.push('--path', path.trim());
      if (d?.openat?.exitCode) args.push('--exit-code', d.openat.exitCode);
      args.push('--probability', d?.probability || '100%');
      return args;
    }
    case 'grpc-disruption': {
      const g = spec.grpc;
      const args = ['grpc-disruption', '--port', int(g?.port), '--endpoint-alterations'];
      const alterations = items(g?.endpoints).map((e) => {
        const [type, value] = e.override ? ['override', e.override] : e.error ? ['error', e.error] : ['', ''];
        return `${e.endpoint};${type};${value};${int(e.queryPercent)}`;
      });
      // Upstream joins the alterations with " --endpoint-alterations " and splits on spaces.
      args.push(...alterations.join(' --endpoint-alterations ').split(' '));
      return args;
    }
    case 'dns-disruption': {
      const d = spec.dns;
      const args = ['dns-disruption'];
      const records = items(d?.records);
      if (records.length > 0) args.push('--records', records.map((r) => `${r.hostname}:${r.record.type.toUpperCase()}:${r.record.value}:${int(r.record.ttl)}`).join(';'));
      args.push('--port', String(d?.port || 53), '--protocol', d?.protocol || 'both');
      return args;
    }
    case 'pod-replacement': {
      const p = spec.podReplacement;
      const args = ['pod-replacement', 'inject'];
      if (p?.deleteStorage) args.push('--delete-storage');
      if (p?.forceDelete) args.push('--force-delete');
      if (p?.gracePeriodSeconds !== undefined && p.gracePeriodSeconds !== null) args.push('--grace-period-seconds', int(p.gracePeriodSeconds));
      return args;
    }
  }
}
