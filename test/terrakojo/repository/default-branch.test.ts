// The default-branch cursor logic (upstream's CollectDefaultBranchCommits scenarios) over a tiny in-memory
// GitHubClient: compare and commit lookups only, with the answers a test sets.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import type { CompareResult, GitHubClient } from '../../../src/terrakojo/github/github-client.ts';
import { EmptyCompareError, newDefaultBranchCommits } from '../../../src/terrakojo/repository/default-branch.ts';

const repo = { owner: 'acme', name: 'infra' };
const sha = (n: number): string => n.toString(16).padStart(40, '0');

class CompareFailed extends Error {
  override readonly name = 'CompareFailed' as const;
}

interface FakeAnswers {
  compare?: (base: string, head: string) => CompareResult;
  /** Commits that exist; anything else is gone. */
  existing?: Set<string>;
  commitLookupFails?: boolean;
}

function fakeGitHub(answers: FakeAnswers): GitHubClient & { calls: string[] } {
  const calls: string[] = [];
  const unused = (): never => {
    throw new Error('not used by the cursor logic');
  };
  return {
    calls,
    async compareCommits(_o, _r, base, head) {
      calls.push(`compare ${base.slice(-3)}...${head.slice(-3)}`);
      if (!answers.compare) throw new CompareFailed('422 No common ancestor');
      return answers.compare(base, head);
    },
    async commitExists(_o, _r, s) {
      calls.push(`commit ${s.slice(-3)}`);
      if (answers.commitLookupFails) throw new Error('502 Bad Gateway');
      return answers.existing?.has(s) ?? false;
    },
    getBranchHead: unused,
    listBranches: unused,
    listOpenPullRequests: unused,
    commitFiles: unused,
    pullRequestFiles: unused,
    findCheckRun: unused,
    createCheckRun: unused,
    updateCheckRun: unused,
  };
}

/** A linear history 1..n: compare returns base+1.. head, oldest first, at most 250. */
function linear(n: number): (base: string, head: string) => CompareResult {
  return (base, head) => {
    const from = parseInt(base, 16);
    const to = parseInt(head, 16);
    const all = Array.from({ length: Math.max(0, to - from) }, (_, i) => sha(from + 1 + i)).filter((s) => parseInt(s, 16) <= n);
    return { shas: all.slice(0, 250), status: to > from ? 'ahead' : to < from ? 'behind' : 'identical', totalCommits: all.length };
  };
}

describe('default-branch commits since the cursor', () => {
  it('no cursor: the head alone', async () => {
    const gh = fakeGitHub({});
    assert.deepEqual(await newDefaultBranchCommits(gh, repo, undefined, sha(5)), [sha(5)]);
    assert.deepEqual(await newDefaultBranchCommits(gh, repo, '', sha(5)), [sha(5)]);
    assert.deepEqual(gh.calls, []);
  });

  it('cursor at the head: nothing, and no GitHub call', async () => {
    const gh = fakeGitHub({});
    assert.deepEqual(await newDefaultBranchCommits(gh, repo, sha(5), sha(5)), []);
    assert.deepEqual(gh.calls, []);
  });

  it('uses compare: the commits after the cursor, oldest first', async () => {
    const gh = fakeGitHub({ compare: linear(10) });
    assert.deepEqual(await newDefaultBranchCommits(gh, repo, sha(7), sha(10)), [sha(8), sha(9), sha(10)]);
  });

  it('300 commits: the first page of 250, then the rest from the page\'s last commit', async () => {
    const gh = fakeGitHub({ compare: linear(301) });
    const first = await newDefaultBranchCommits(gh, repo, sha(1), sha(301));
    assert.equal(first.length, 250);
    assert.equal(first[0], sha(2));
    assert.equal(first.at(-1), sha(251));
    const second = await newDefaultBranchCommits(gh, repo, first.at(-1), sha(301));
    assert.equal(second.length, 50);
    assert.equal(second.at(-1), sha(301));
    assert.equal(new Set([...first, ...second]).size, 300);
  });

  it('compare fails and the cursor is gone (a force-push): the head alone', async () => {
    const gh = fakeGitHub({ existing: new Set() });
    assert.deepEqual(await newDefaultBranchCommits(gh, repo, sha(7), sha(10)), [sha(10)]);
    assert.deepEqual(gh.calls, ['compare 007...00a', 'commit 007']);
  });

  it('compare fails while the cursor still exists: the compare error, no skipped commits', async () => {
    const gh = fakeGitHub({ existing: new Set([sha(7)]) });
    await assert.rejects(newDefaultBranchCommits(gh, repo, sha(7), sha(10)), CompareFailed);
  });

  it('compare fails and the cursor lookup fails too: that error', async () => {
    const gh = fakeGitHub({ commitLookupFails: true });
    await assert.rejects(newDefaultBranchCommits(gh, repo, sha(7), sha(10)), /502 Bad Gateway/);
  });

  it('an empty compare with status behind: the head alone', async () => {
    const gh = fakeGitHub({ compare: () => ({ shas: [], status: 'behind', totalCommits: 0 }), existing: new Set([sha(7)]) });
    assert.deepEqual(await newDefaultBranchCommits(gh, repo, sha(7), sha(3)), [sha(3)]);
    assert.deepEqual(gh.calls, ['compare 007...003']);
  });

  it('an empty compare whose cursor is gone: the head alone', async () => {
    const gh = fakeGitHub({ compare: () => ({ shas: [], status: 'diverged', totalCommits: 0 }), existing: new Set() });
    assert.deepEqual(await newDefaultBranchCommits(gh, repo, sha(7), sha(10)), [sha(10)]);
  });

  it('an empty compare whose cursor exists: an EmptyCompareError', async () => {
    const gh = fakeGitHub({ compare: () => ({ shas: [], status: 'diverged', totalCommits: 0 }), existing: new Set([sha(7)]) });
    await assert.rejects(newDefaultBranchCommits(gh, repo, sha(7), sha(10)), (err: unknown) => err instanceof EmptyCompareError && /listed no commits \(status "diverged"\)/.test(err.message));
  });
});
