import { describe, expect, it } from 'vitest';
import { blockedReasons, type BlockedInput } from './blocked-reasons.js';

const quiet: BlockedInput = {
  output: '',
  network: false,
  timedOut: false,
  timeoutMs: 60_000,
  memoryMb: 1024,
  maxProcesses: 64,
  processLimitReached: false,
  signal: null,
  exitCode: 0,
  killedBySandbox: false,
  truncated: false,
  outputBytes: 0,
  outputCapBytes: 20_000,
  fileCapped: false,
  fileCapBytes: 50 * 1024 * 1024,
  outputPath: '/run/output.txt',
};

describe('blocked reasons', () => {
  it('says nothing for a clean run', () => {
    expect(blockedReasons(quiet)).toEqual([]);
  });

  it('names a failed download as the network being disabled, only when it is', () => {
    const output =
      'urllib.error.URLError: <urlopen error [Errno -3] Temporary failure in name resolution>';
    expect(blockedReasons({ ...quiet, output })[0]).toMatch(/^network is disabled for this task/);
    expect(blockedReasons({ ...quiet, output, network: true })).toEqual([]);
  });

  it('reports an out-of-memory kill it did not cause, not its own kills', () => {
    expect(blockedReasons({ ...quiet, exitCode: 137 })[0]).toMatch(/^memory: .*1024 MiB/);
    expect(blockedReasons({ ...quiet, exitCode: 137, killedBySandbox: true })).toEqual([]);
  });

  it('reports the process limit from the cgroup even without a message', () => {
    expect(blockedReasons({ ...quiet, processLimitReached: true })[0]).toMatch(
      /^process limit: .* 64 processes/,
    );
  });
});
