// The iptables rules upstream inserts (network/iptables.go through coreos/go-iptables, which runs
// `iptables --wait -t TABLE -C|-I|-D CHAIN …`): rules are inserted at position 1 unless present, recorded, and
// deleted on clean unless already gone.

export interface IptablesRule {
  table: 'nat' | 'mangle';
  chain: string;
  rulespec: string[];
}

/** A no-op rule that switches conntrack on in the netns (flower's ct_state needs it). */
export const conntrackRule = (): IptablesRule => ({ table: 'nat', chain: 'OUTPUT', rulespec: ['-m', 'state', '--state', 'new,established', '-j', 'LOG'] });

export const markCgroupPathRule = (cgroupPath: string, mark: string): IptablesRule => ({
  table: 'mangle',
  chain: 'POSTROUTING',
  rulespec: ['-m', 'cgroup', '--path', cgroupPath, '-j', 'MARK', '--set-mark', mark],
});

export const markClassIdRule = (classId: string, mark: string): IptablesRule => ({
  table: 'mangle',
  chain: 'POSTROUTING',
  rulespec: ['-m', 'cgroup', '--cgroup', classId, '-j', 'MARK', '--set-mark', mark],
});

export const checkArgv = (r: IptablesRule): string[] => ['iptables', '--wait', '-t', r.table, '-C', r.chain, ...r.rulespec];
export const insertArgv = (r: IptablesRule): string[] => ['iptables', '--wait', '-t', r.table, '-I', r.chain, '1', ...r.rulespec];
export const deleteArgv = (r: IptablesRule): string[] => ['iptables', '--wait', '-t', r.table, '-D', r.chain, ...r.rulespec];
