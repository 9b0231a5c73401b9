// Inserting and deleting the tc plan's iptables rules in a target's netns as go-iptables does for upstream:
// check (-C, a read), insert at position 1 when absent (a write), remember what was inserted; on clean, delete
// each and tolerate one that is already gone.
import type { InjectorContext } from '../../injector.ts';
import { checkArgv, deleteArgv, insertArgv, type IptablesRule } from './iptables-rules.ts';
import { inNetns } from './target-netns.ts';

export class IptablesError extends Error {
  override readonly name = 'IptablesError' as const;
}

/** A read command's exit code; one that cannot start (no iptables) counts as a failure. */
export async function readExitCode(ctx: InjectorContext, argv: string[]): Promise<number> {
  try {
    return (await ctx.reads.run(argv)).code;
  } catch {
    return -1;
  }
}

async function write(ctx: InjectorContext, argv: string[]): Promise<void> {
  const result = await ctx.writes.run(argv);
  if (result.code !== 0) throw new IptablesError(`${argv.slice(2).join(' ')} failed (exit ${result.code}): ${result.stderr.trim()}`);
}

/** Inserts the rule unless present; returns whether it was inserted. */
export async function insertRule(ctx: InjectorContext, pid: number, rule: IptablesRule): Promise<boolean> {
  if ((await readExitCode(ctx, inNetns(pid, checkArgv(rule)))) === 0) {
    ctx.log.info('iptables rule already exists, skipping', { table: rule.table, chain: rule.chain, rulespec: rule.rulespec });
    return false;
  }
  await write(ctx, inNetns(pid, insertArgv(rule)));
  return true;
}

export async function deleteRules(ctx: InjectorContext, pid: number, rules: readonly IptablesRule[]): Promise<void> {
  for (const rule of rules) {
    const deleted = await ctx.writes.run(inNetns(pid, deleteArgv(rule)));
    if (deleted.code !== 0 && (await readExitCode(ctx, inNetns(pid, checkArgv(rule)))) === 0) {
      throw new IptablesError(`unable to delete iptables rule ${rule.table} ${rule.chain} ${rule.rulespec.join(' ')}: ${deleted.stderr.trim()}`);
    }
  }
}
