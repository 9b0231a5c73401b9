// What `bosun up --container-runtime oci` leaves running on purpose when it stops (image containers under
// conmon, for the next start to adopt), and their mounts: a test that is done with its data dir removes them.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatAddress, gatewayOf, parseCidr } from '../../src/node/network/ipv4.ts';

/** The data dirs of dataDir's nodes (bosun up's is nodes/<name>), where each keeps its runtime's state. */
function nodeDirs(dataDir: string): string[] {
  const nodes = join(dataDir, 'nodes');
  return existsSync(nodes) ? readdirSync(nodes).map((name) => join(nodes, name)) : [];
}

/** The node's gateway on its bridge (its block's first address), which a node that kept pods running did not release. */
function releaseGateway(nodeDir: string): void {
  const stateFile = join(nodeDir, 'network', 'network.json');
  if (!existsSync(stateFile)) return;
  const { bridge, nodeCIDR } = JSON.parse(readFileSync(stateFile, 'utf8')) as { bridge: string; nodeCIDR: string };
  const block = parseCidr(nodeCIDR);
  try {
    execFileSync('ip', ['addr', 'del', `${formatAddress(gatewayOf(block))}/${block.prefix}`, 'dev', bridge], { stdio: 'ignore' });
  } catch {
    // Released already.
  }
}

/**
 * Kills and deletes every container of dataDir's nodes' runc roots, unmounts what is mounted from under dataDir,
 * and releases the nodes' gateway addresses (else every such test leaves a /24 on the bridge).
 */
export function removeKeptContainers(dataDir: string): void {
  for (const runcRoot of nodeDirs(dataDir).map((dir) => join(dir, 'oci', 'runc')).filter(existsSync)) {
    for (const id of readdirSync(runcRoot)) {
      try {
        execFileSync('runc', ['--root', runcRoot, 'delete', '--force', id], { stdio: 'ignore' });
      } catch {
        // Already gone.
      }
    }
  }
  // Mount points under dataDir (network namespaces, volumes), and the overlays over its layers, mounted elsewhere.
  const mountPoints = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .filter((line) => line.includes(`${dataDir}/`))
    .map((line) => line.split(' ')[4] ?? '');
  for (const point of mountPoints.reverse()) {
    try {
      execFileSync('umount', ['-l', point], { stdio: 'ignore' });
      // A container's root file system's mount point is outside dataDir (/run/bosun-rootfs/...).
      if (!point.startsWith(`${dataDir}/`)) rmdirSync(point);
    } catch {
      // Unmounted with its parent.
    }
  }
  for (const dir of nodeDirs(dataDir)) releaseGateway(dir);
}
