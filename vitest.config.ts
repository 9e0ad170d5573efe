import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files that drive Chromium. They wait on the page with short expectations, so they run one
 * at a time, after the rest, rather than beside other files competing for the CPU.
 */
const browserFiles = [
  'test/web/browser.test.ts',
  'test/web/*-browser.test.ts',
  'test/reader/chromium-pdf.test.ts',
];

/**
 * Most of the suite waits on child processes (the CLI, Python in the sandbox, Redis), so it
 * runs a file per core, at least two: vitest's default (cores − 1, one worker on two cores)
 * left a core idle for most of the run.
 */
const workers = Math.max(2, availableParallelism());

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    maxWorkers: workers,
    minWorkers: 1,
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...browserFiles],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: browserFiles,
          poolOptions: { forks: { singleFork: true } },
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
