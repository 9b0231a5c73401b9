// /version. kubectl's dispatcher picks its bundled kubectl from `minor`, so this says 1.32.
export const serverVersion = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.4-bosun',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-11-21T00:00:00Z',
  goVersion: `node${process.versions.node}`,
  compiler: 'bosun',
  platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
};
