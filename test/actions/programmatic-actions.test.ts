import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allActions, findAction, invokeAction } from '../../src/agent/actions/index.js';
import { setUp, starterCode, type TestSetup } from './action-context.js';

let setup: TestSetup;

beforeEach(async () => {
  setup = await setUp();
});

afterEach(async () => {
  await setup.cleanup();
});

function run(name: string, input: unknown) {
  return invokeAction(name, input, setup.context);
}

describe('findAction and invokeAction', () => {
  it('finds actions ignoring case, spacing and underscores', () => {
    expect(findAction('list files')?.name).toBe('List Files');
    expect(findAction('  Inspect_Script_Lines ')?.name).toBe('Inspect Script Lines');
    expect(findAction('ExecuteScript')?.name).toBe('Execute Script');
    expect(findAction('Edit Script (AI)')?.name).toBe('Edit Script');
    expect(findAction('understand file with code-context')?.name).toBe(
      'Understand File with Code Context',
    );
    expect(findAction('Fly Away')).toBeUndefined();
    expect(findAction('')).toBeUndefined();
  });

  it('turns an unknown action into an observation listing the actions', async () => {
    const result = await run('Fly Away', {});
    expect(result.ok).toBe(false);
    expect(result.observation).toContain('There is no action named "Fly Away"');
    expect(result.observation).toContain('List Files');
  });

  it('gives every action a description, a pool and a usage its own schema accepts', () => {
    for (const action of allActions) {
      expect(action.description.length).toBeGreaterThan(20);
      expect(['understanding', 'coding', 'general']).toContain(action.pool);
      expect(action.inputSchema.safeParse(action.usage).success, action.name).toBe(true);
    }
  });
});

describe('List Files', () => {
  it('lists the workspace with sizes and read-only marks', async () => {
    const result = await run('List Files', { dir_path: '.' });
    expect(result.ok).toBe(true);
    expect(result.observation).toContain(
      `starter_code.py (${Buffer.byteLength(starterCode)} bytes) [read-only task input]`,
    );
  });

  it('refuses paths outside the workspace and names missing folders', async () => {
    const outside = await run('List Files', { dir_path: '..' });
    expect(outside.ok).toBe(false);
    expect(outside.observation).toContain('leaves the workspace');
    expect(outside.observation).toContain('Usage: Action: List Files');
    const missing = await run('List Files', { dir_path: 'nowhere' });
    expect(missing.observation).toContain('nowhere does not exist');
  });
});

describe('Copy File', () => {
  it('copies and refuses to overwrite a task input', async () => {
    const copied = await run('Copy File', { source: 'starter_code.py', destination: 'impl.py' });
    expect(copied.ok).toBe(true);
    expect(await setup.context.workspace.read('impl.py')).toBe(starterCode);
    const onto = await run('Copy File', { source: 'impl.py', destination: 'starter_code.py' });
    expect(onto.ok).toBe(false);
    expect(onto.observation).toContain('read-only');
    expect(onto.observation).toContain('methodology_implementation.py');
  });

  it('puts the usage in the observation when the input is wrong', async () => {
    const result = await run('Copy File', { source: 'starter_code.py' });
    expect(result.ok).toBe(false);
    expect(result.observation).toContain('invalid Action Input (destination:');
    expect(result.observation).toContain('"destination": "implementation_that_ran.py"');
  });
});

describe('Inspect Script Lines', () => {
  it('numbers the lines and says where the file ends', async () => {
    const result = await run('Inspect Script Lines', {
      script_name: 'starter_code.py',
      start_line_number: '4',
      end_line_number: 50,
    });
    expect(result.ok).toBe(true);
    expect(result.observation).toContain(
      'starter_code.py has 12 lines; showing 4-12 (this is the end of the file):',
    );
    expect(result.observation).toContain(' 4: def train(epochs):');
    expect(result.observation).toContain('12:     print(f"accuracy: {train(3):.2f}")');
  });

  it('shows at most 100 lines', async () => {
    const long = Array.from({ length: 143 }, (_, index) => `x${index + 1} = ${index + 1}`).join(
      '\n',
    );
    await setup.context.workspace.write('long.py', long, 'test');
    const result = await run('Inspect Script Lines', {
      script_name: 'long.py',
      start_line_number: 40,
      end_line_number: 143,
    });
    expect(result.observation).toContain('long.py has 143 lines; showing 40-139');
    expect(result.observation).toContain('139: x139 = 139');
    expect(result.observation).not.toContain('140: x140');
  });

  it('refuses ranges past the end or backwards', async () => {
    const past = await run('Inspect Script Lines', {
      script_name: 'starter_code.py',
      start_line_number: 20,
      end_line_number: 30,
    });
    expect(past.observation).toContain('starter_code.py has 12 lines, so it has no line 20');
    const backwards = await run('Inspect Script Lines', {
      script_name: 'starter_code.py',
      start_line_number: 5,
      end_line_number: 2,
    });
    expect(backwards.ok).toBe(false);
    const missing = await run('Inspect Script Lines', {
      script_name: 'nope.py',
      start_line_number: 1,
      end_line_number: 2,
    });
    expect(missing.observation).toContain('nope.py does not exist');
  });
});

describe('Undo Edit Script and Get Code Diff', () => {
  it('diffs against the starter, then the previous version, and undoes edits one by one', async () => {
    const workspace = setup.context.workspace;
    await workspace.copy('starter_code.py', 'impl.py');
    const versusStarter = await run('Get Code Diff', { script_name: 'impl.py' });
    expect(versusStarter.observation).toContain('starter_code.py and impl.py are identical');

    await workspace.write(
      'impl.py',
      starterCode.replace('range(epochs)', 'range(epochs * 2)'),
      'edit',
    );
    const versusPrevious = await run('Get Code Diff', { script_name: 'impl.py' });
    expect(versusPrevious.observation).toContain(
      'Changes from impl.py (version 1) to impl.py: 1 lines added, 1 removed.',
    );
    expect(versusPrevious.observation).toContain('+    for epoch in range(epochs * 2):');

    const explicit = await run('Get Code Diff', {
      script_name: 'impl.py',
      version: 2,
      other_version: 1,
    });
    expect(explicit.observation).toContain('impl.py (version 1) to impl.py (version 2)');

    const undone = await run('Undo Edit Script', { script_name: 'impl.py' });
    expect(undone.ok).toBe(true);
    expect(undone.observation).toContain('Undid version 2 (edit): impl.py is back to version 1');
    expect(await workspace.read('impl.py')).toBe(starterCode);
    const removed = await run('Undo Edit Script', { script_name: 'impl.py' });
    expect(removed.observation).toContain('did not exist before that edit, so it is removed');
    const nothing = await run('Undo Edit Script', { script_name: 'impl.py' });
    expect(nothing.ok).toBe(false);
    expect(nothing.observation).toContain('no earlier version');
  });

  it('refuses to undo a task input and to diff the starter with itself', async () => {
    const undo = await run('Undo Edit Script', { script_name: 'starter_code.py' });
    expect(undo.observation).toContain('read-only');
    const diff = await run('Get Code Diff', { script_name: 'starter_code.py' });
    expect(diff.ok).toBe(false);
    expect(diff.observation).toContain('never been edited');
    const outside = await run('Get Code Diff', { script_name: '/etc/passwd' });
    expect(outside.observation).toContain('leaves the workspace');
  });
});

describe('Final Answer', () => {
  it('refuses without the output script, then accepts it and marks the run final', async () => {
    const missing = await run('Final Answer', { summary: 'done' });
    expect(missing.ok).toBe(false);
    expect(missing.final).toBeUndefined();
    expect(missing.observation).toContain('methodology_implementation.py does not exist');
    await setup.context.workspace.write(
      'methodology_implementation.py',
      starterCode.replace('0.01', '0.02'),
      'edit',
    );
    const accepted = await run('Final Answer', { summary: 'doubled the step' });
    expect(accepted).toMatchObject({ ok: true, final: true });
    expect(accepted.observation).toContain('Against starter_code.py: 1 lines added, 1 removed.');
    const empty = await run('Final Answer', { summary: '  ' });
    expect(empty.observation).toContain('summarize what you implemented');
  });
});

describe('Request Planning Expert Help', () => {
  it('asks the expert with the problem, the log and the question, then refuses at the limit', async () => {
    await setup.cleanup();
    setup = await setUp({ answers: ['1. Copy the starter code. 2. Edit the loop.'] });
    const first = await run('Request Planning Expert Help', { question: 'What next?' });
    expect(first.ok).toBe(true);
    expect(first.observation).toContain(
      'Expert advice (0 requests left):\n1. Copy the starter code.',
    );
    const request = setup.model.requests[0];
    expect(request?.role).toBe('expert');
    expect(setup.model.sent(0)).toContain('Train for more epochs');
    expect(setup.model.sent(0)).toContain('Step 2: copied starter_code.py.');
    expect(setup.model.sent(0)).toContain('Question:\nWhat next?');
    const second = await run('Request Planning Expert Help', { question: 'And now?' });
    expect(second.ok).toBe(false);
    expect(second.observation).toContain('limit of expert help for this run is reached');
    expect(setup.model.requests).toHaveLength(1);
  });

  it('turns a failing model call into an observation and keeps the allowance', async () => {
    const result = await run('Request Planning Expert Help', { question: 'Help?' });
    expect(result.ok).toBe(false);
    expect(result.observation).toContain('the test scripted no answer');
    expect(setup.context.expertHelp.remaining).toBe(1);
  });
});
