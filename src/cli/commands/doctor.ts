import { checkBubblewrap } from '../../sandbox/bubblewrap-check.js';
import {
  candidateInterpreters,
  commonModules,
  probeInterpreter,
} from '../../sandbox/interpreters.js';
import { providerKeyVariables } from '../../llm/provider-keys.js';

export interface DoctorReport {
  ok: boolean;
  lines: string[];
}

/** Checks what codify needs on this machine and says what to install and how. */
export async function runDoctor(): Promise<DoctorReport> {
  const lines: string[] = [];
  const advice: string[] = [];
  let ok = true;

  const major = Number(process.versions.node.split('.')[0]);
  const nodeOk = major >= 20;
  ok &&= nodeOk;
  lines.push(
    `${nodeOk ? 'ok  ' : 'FAIL'} node ${process.versions.node}${nodeOk ? '' : ' (codify needs Node 20 or newer)'}`,
  );

  const bubblewrap = await checkBubblewrap();
  if (!bubblewrap.found) {
    ok = false;
    lines.push('FAIL bubblewrap: not installed');
    advice.push('Install bubblewrap: `sudo apt-get install bubblewrap` (or run scripts/setup.sh).');
  } else {
    lines.push(
      `${bubblewrap.canStart ? 'ok  ' : 'FAIL'} ${bubblewrap.version ?? 'bubblewrap'}: ${bubblewrap.detail}`,
    );
    if (!bubblewrap.canStart) {
      ok = false;
      advice.push(
        'bubblewrap cannot create namespaces here; enable unprivileged user namespaces (`sysctl kernel.unprivileged_userns_clone=1`) or run with --sandbox none at your own risk.',
      );
    }
  }

  const interpreters = await candidateInterpreters();
  let anyWithNumpy = false;
  for (const path of interpreters) {
    try {
      const probe = await probeInterpreter(path, commonModules);
      const has = commonModules.filter((name) => probe.modules[name]);
      const lacks = commonModules.filter((name) => !probe.modules[name]);
      anyWithNumpy ||= probe.modules.numpy === true;
      lines.push(
        `ok   python ${probe.version} ${path}${probe.realPath !== path ? ` (${probe.realPath})` : ''}: imports ${has.join(', ') || 'none of the ML modules'}${lacks.length ? `; lacks ${lacks.join(', ')}` : ''}`,
      );
    } catch (error) {
      lines.push(`warn python ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (interpreters.length === 0) {
    ok = false;
    lines.push('FAIL python: no python3 found');
  }
  if (!anyWithNumpy) {
    advice.push(
      'No interpreter imports numpy: `sudo apt-get install python3-numpy python3-torch python3-torchvision python3-sklearn python3-pandas` (or run scripts/setup.sh).',
    );
  }

  const setKeys = providerKeyVariables.filter((entry) => process.env[entry.variable]);
  lines.push(
    `info provider keys set: ${setKeys.length ? setKeys.map((entry) => entry.variable).join(', ') : 'none (the demo, exchange: and replay: need none)'}`,
  );

  return { ok, lines: [...lines, ...advice.map((text) => `  -> ${text}`)] };
}
