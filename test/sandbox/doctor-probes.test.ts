import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../src/cli/commands/doctor.js';

/**
 * `codify doctor` probes each interpreter once and then answers from its cache until the
 * interpreter changes. The interpreter here is Debian's python3 without its site packages
 * (`-S`), with one folder of our own on its import path, behind a wrapper that logs every run.
 */
let scratch = '';
let wrapper = '';
let site = '';
let log = '';
let cacheFile = '';
const savedPython = process.env.CODIFY_PYTHON;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'codify-doctor-'));
  site = join(scratch, 'site');
  log = join(scratch, 'runs.log');
  cacheFile = join(scratch, 'cache', 'python-probes.json');
  wrapper = join(scratch, 'bin', 'python3');
  await mkdir(site);
  await mkdir(join(scratch, 'bin'));
  await writeFile(
    wrapper,
    [
      '#!/bin/sh',
      'case "$2" in',
      `  *importlib*) echo imports >> '${log}' ;;`,
      `  *sys.path*) echo identity >> '${log}' ;;`,
      `  *) echo other >> '${log}' ;;`,
      'esac',
      `PYTHONPATH='${site}' exec /usr/bin/python3 -S "$@"`,
      '',
    ].join('\n'),
  );
  await chmod(wrapper, 0o755);
  // the first interpreter doctor tries
  process.env.CODIFY_PYTHON = wrapper;
});

afterAll(async () => {
  if (savedPython === undefined) delete process.env.CODIFY_PYTHON;
  else process.env.CODIFY_PYTHON = savedPython;
  await rm(scratch, { recursive: true, force: true });
});

const wrapperLine = (lines: string[]): string | undefined =>
  lines.find((line) => line.includes(` ${wrapper}`));

async function doctor() {
  await writeFile(log, '');
  const streamed: string[] = [];
  let finished = false;
  let streamedBeforeEnd = 0;
  const report = await runDoctor({
    cacheFile,
    onLine: (line) => {
      streamed.push(line);
      if (!finished) streamedBeforeEnd += 1;
    },
  });
  finished = true;
  const runs = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
  return { report, streamed, streamedBeforeEnd, runs };
}

describe('codify doctor', () => {
  it('streams its lines as it goes, probes each interpreter once, then answers from the cache', async () => {
    const first = await doctor();
    expect(first.streamed).toEqual(first.report.lines);
    expect(first.streamedBeforeEnd).toBe(first.report.lines.length);
    expect(first.report.lines[0]).toMatch(/^ok {3}node /);
    expect(wrapperLine(first.report.lines)).toMatch(/^ok {3}python 3\.\S+ .*: imports none/);
    expect(first.runs).toEqual(['identity', 'imports']);
    expect(JSON.parse(await readFile(cacheFile, 'utf8'))).toHaveProperty([wrapper]);

    const second = await doctor();
    expect(second.report.lines).toEqual(first.report.lines);
    expect(second.runs).toEqual(['identity']);
  }, 120_000);

  it('probes again when a module appears on the interpreter’s import path', async () => {
    await mkdir(join(site, 'pandas'));
    await writeFile(join(site, 'pandas', '__init__.py'), '');
    const changed = await doctor();
    expect(wrapperLine(changed.report.lines)).toMatch(/: imports pandas; lacks/);
    expect(changed.runs).toEqual(['identity', 'imports']);

    const again = await doctor();
    expect(wrapperLine(again.report.lines)).toMatch(/: imports pandas; lacks/);
    expect(again.runs).toEqual(['identity']);
  }, 120_000);
});
