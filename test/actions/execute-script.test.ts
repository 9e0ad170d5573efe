import { readFile } from 'node:fs/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { invokeAction } from '../../src/agent/actions/index.js';
import { createSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { setUp, starterCode, type TestSetup } from './action-context.js';

let sandbox: Sandbox;
let setup: TestSetup | undefined;

beforeAll(async () => {
  sandbox = await createSandbox('bubblewrap');
});

afterEach(async () => {
  await setup?.cleanup();
  setup = undefined;
});

describe('Execute Script (real bubblewrap, real Python)', () => {
  it('runs the script, reads the metric, saves the output and reports changed lines that never ran', async () => {
    setup = await setUp({ sandbox });
    const edited = starterCode.replace(
      '    return accuracy',
      '    if epochs > 100:\n        accuracy = 1.0\n    return accuracy',
    );
    await setup.context.workspace.write('methodology_implementation.py', edited, 'edit');
    const result = await invokeAction(
      'Execute Script',
      { script_name: 'methodology_implementation.py' },
      setup.context,
    );
    expect(result.ok, result.observation).toBe(true);
    expect(result.observation).toContain('Ran `python methodology_implementation.py`');
    expect(result.observation).toContain('exit code 0 (success)');
    expect(result.observation).toContain('Metric accuracy: 0.53 (higher is better).');
    // Lines 8-9 are the new branch: the condition (8) ran, its body (9) never did.
    expect(result.observation).toContain(
      'New or changed lines that never ran: 9. New or changed lines that ran: 8.',
    );
    expect(result.observation).toContain('counted against starter_code.py');
    // no path into the run folder, which the agent cannot open; the counts file is its own
    expect(result.observation).not.toContain(setup.context.run.dir);
    expect(result.observation).toMatch(/Per-line counts: \S+\.cover in the workspace/);
    // the code of the line that never ran is quoted, so it need not be looked up by number
    expect(result.observation).toContain('Lines that never ran:\n9:         accuracy = 1.0');
    const outputPath = `${setup.context.run.dir}/outputs/3-methodology_implementation.py.txt`;
    expect(await readFile(outputPath, 'utf8')).toContain('accuracy: 0.53');
    const event = setup.events.find((candidate) => candidate.type === 'execution-end');
    expect(event).toMatchObject({
      type: 'execution-end',
      script: 'methodology_implementation.py',
      exitCode: 0,
      metric: 0.53,
      outputPath,
    });
  });

  it('reports a crash, a missing metric, and what the sandbox blocked', async () => {
    setup = await setUp({ sandbox });
    const script = [
      'import socket',
      'try:',
      '    socket.create_connection(("example.com", 80), timeout=2)',
      'except OSError as error:',
      '    print("network:", error)',
      'def fail():',
      '    raise SystemExit(3)',
      'import traceback',
      'traceback.print_stack()',
      'fail()',
      '',
    ].join('\n');
    await setup.context.workspace.write('crash.py', script, 'edit');
    const result = await invokeAction(
      'Execute Script',
      { script_name: 'crash.py', arguments: '--x "a b"' },
      setup.context,
    );
    expect(result.ok).toBe(false);
    expect(result.observation).toContain('Ran `python crash.py --x a b`');
    expect(result.observation).toContain('exit code 3 (failure)');
    expect(result.observation).toContain('Metric accuracy: not found in the output');
    expect(result.observation).toMatch(/The sandbox blocked: .*network/i);
    // the traceback names the script as the agent does, not by its path in the run folder
    expect(result.observation).toContain('File "crash.py", line 9');
    expect(result.observation).not.toContain(setup.context.workspace.root);
  });

  it('refuses missing scripts and paths outside the workspace without running anything', async () => {
    setup = await setUp({ sandbox });
    const missing = await invokeAction('Execute Script', { script_name: 'nope.py' }, setup.context);
    expect(missing.ok).toBe(false);
    expect(missing.observation).toContain('nope.py does not exist');
    expect(missing.observation).toContain('Usage: Action: Execute Script');
    const outside = await invokeAction(
      'Execute Script',
      { script_name: '../task/starter_code.py' },
      setup.context,
    );
    expect(outside.observation).toContain('leaves the workspace');
    expect(setup.events).toHaveLength(0);
  });
});
