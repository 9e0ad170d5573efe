import { afterEach, describe, expect, it } from 'vitest';
import { invokeAction } from '../../src/agent/actions/index.js';
import { setUp, starterCode, type TestSetup } from './action-context.js';

let setup: TestSetup | undefined;

afterEach(async () => {
  await setup?.cleanup();
  setup = undefined;
});

async function start(answers: string[], files: Record<string, string> = {}): Promise<TestSetup> {
  setup = await setUp({ answers, files });
  return setup;
}

const fence = (code: string) => `Here is the edit.\n\`\`\`python\n${code}\`\`\``;

describe('Understand File', () => {
  it('reads a long file in labelled chunks and merges the answers', async () => {
    const long = Array.from(
      { length: 450 },
      (_, index) => `value_${index + 1} = ${index + 1}`,
    ).join('\n');
    const { context, model } = await start(
      ['part one', 'part two', 'part three', 'merged answer'],
      {
        'big.py': long,
      },
    );
    const result = await invokeAction(
      'Understand File',
      { file_name: 'big.py', things_to_look_for: 'the largest value' },
      context,
    );
    expect(result.observation).toBe('About big.py:\nmerged answer');
    expect(model.requests.map((request) => request.role)).toEqual([
      'worker',
      'worker',
      'worker',
      'worker',
    ]);
    expect(model.sent(0)).toContain('big.py, lines 1-200 of 450:');
    expect(model.sent(0)).toContain('200: value_200 = 200');
    expect(model.sent(0)).not.toContain('value_201');
    expect(model.sent(1)).toContain('big.py, lines 201-400 of 450:');
    expect(model.sent(2)).toContain('big.py, lines 401-450 of 450:');
    expect(model.sent(2)).toContain('450: value_450 = 450');
    expect(model.requests[0]?.system).toContain('Look for: the largest value');
    expect(model.sent(3)).toContain('Notes on lines 201-400:\npart two');
    expect(model.requests[3]?.system).toContain('combining notes');
  });

  it('makes one call for a short file, and none for a missing one', async () => {
    const { context, model } = await start(['train() is at lines 4-8']);
    const result = await invokeAction(
      'understand file',
      { file_name: 'starter_code.py', things_to_look_for: 'the training loop' },
      context,
    );
    expect(result.observation).toBe('About starter_code.py:\ntrain() is at lines 4-8');
    expect(model.sent(0)).toContain('starter_code.py, lines 1-12 of 12:');
    const missing = await invokeAction(
      'Understand File',
      { file_name: 'nope.py', things_to_look_for: 'x' },
      context,
    );
    expect(missing.ok).toBe(false);
    expect(missing.observation).toContain('nope.py does not exist');
    const bad = await invokeAction('Understand File', { file_name: 'starter_code.py' }, context);
    expect(bad.observation).toContain('things_to_look_for');
    expect(bad.observation).toContain('Usage: Action: Understand File');
    expect(model.requests).toHaveLength(1);
  });
});

describe('Understand File with Code Context', () => {
  it('shows the context files with every chunk and refuses context outside the workspace', async () => {
    const { context, model } = await start(['uses helper() from utils.py'], {
      'utils.py': 'def helper():\n    return 42\n',
    });
    const result = await invokeAction(
      'Understand File with Code Context',
      {
        file_name: 'starter_code.py',
        things_to_look_for: 'calls into utils',
        context_files: 'utils.py',
      },
      context,
    );
    expect(result.ok).toBe(true);
    expect(model.sent(0)).toContain(
      'Context file utils.py (line numbers added):\n1: def helper():',
    );
    expect(model.sent(0)).toContain('starter_code.py, lines 1-12 of 12:');
    const outside = await invokeAction(
      'Understand File with Code Context',
      {
        file_name: 'starter_code.py',
        things_to_look_for: 'x',
        context_files: ['../../etc/passwd'],
      },
      context,
    );
    expect(outside.observation).toContain('leaves the workspace');
    expect(model.requests).toHaveLength(1);
  });
});

describe('Edit Script', () => {
  const better = starterCode.replace('accuracy += 0.01', 'accuracy += 0.02');
  const doubleTheStep = (context: Parameters<typeof invokeAction>[2]) =>
    invokeAction(
      'Edit Script',
      {
        script_name: 'starter_code.py',
        edit_instruction: 'Double the step.',
        save_name: 'methodology_implementation.py',
      },
      context,
    );

  it('saves a compiling whole-file edit to save_name and shows the diff', async () => {
    const { context, model } = await start([fence(better)]);
    const result = await doubleTheStep(context);
    expect(result.ok, result.observation).toBe(true);
    expect(result.observation).toContain(
      'Edited starter_code.py and saved it to methodology_implementation.py (version 1): 1 lines added, 1 removed.',
    );
    expect(result.observation).toContain('+        accuracy += 0.02');
    expect(await context.workspace.read('methodology_implementation.py')).toBe(better);
    expect(await context.workspace.read('starter_code.py')).toBe(starterCode);
    expect(model.requests[0]?.role).toBe('worker');
    expect(model.sent(0)).toContain(' 7:         accuracy += 0.01');
    expect(model.sent(0)).toContain('Edit instruction:\nDouble the step.');
    expect(model.requests[0]?.system).toContain('Answer with edit blocks');
  });

  it('applies edit blocks, and asks once more with the reason when a block matches no line', async () => {
    const edit = (search: string) =>
      `One change.\n<<<<<<< SEARCH\n${search}\n=======\n        accuracy += 0.02\n>>>>>>> REPLACE`;
    const { context, model } = await start([
      edit('        accuracy += 0.1'),
      edit(' 7:         accuracy += 0.01'),
    ]);
    const result = await doubleTheStep(context);
    expect(result.ok, result.observation).toBe(true);
    expect(await context.workspace.read('methodology_implementation.py')).toBe(better);
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]?.messages.at(-1)?.content).toBe(
      'Your edit could not be applied: the SEARCH part of the edit block (starting `accuracy += 0.1`) is not in the file; copy the lines exactly as the file has them, without their line numbers. Answer again.',
    );
  });

  it('splices a line-range edit into the file', async () => {
    const { context, model } = await start([
      fence('        accuracy += 0.05\n        accuracy *= 1.0\n'),
    ]);
    const result = await invokeAction(
      'Edit Script',
      {
        script_name: 'starter_code.py',
        edit_instruction: 'Bigger step.',
        save_name: 'impl.py',
        start_line_number: 7,
        end_line_number: 7,
      },
      context,
    );
    expect(result.ok, result.observation).toBe(true);
    const lines = (await context.workspace.read('impl.py')).split('\n');
    expect(lines.slice(5, 9)).toEqual([
      '    for epoch in range(epochs):',
      '        accuracy += 0.05',
      '        accuracy *= 1.0',
      '    return accuracy',
    ]);
    expect(lines).toHaveLength(14);
    expect(model.requests[0]?.system).toContain('Rewrite only lines 7-7');
  });

  it('refuses an edit that changes nothing', async () => {
    const { context } = await start([fence(starterCode)]);
    const result = await invokeAction(
      'Edit Script',
      { script_name: 'starter_code.py', edit_instruction: 'Nothing.', save_name: 'impl.py' },
      context,
    );
    expect(result.ok).toBe(false);
    expect(result.observation).toContain(
      'the edit changes nothing in starter_code.py, so it was not saved',
    );
    expect(await context.workspace.versions('impl.py')).toEqual([]);
  });

  it('shows a non-compiling edit with the compile error and saves nothing', async () => {
    const broken = starterCode.replace('def train(epochs):', 'def train(epochs)');
    const { context } = await start([fence(broken)]);
    const result = await invokeAction(
      'Edit Script',
      { script_name: 'starter_code.py', edit_instruction: 'Break it.', save_name: 'impl.py' },
      context,
    );
    expect(result.ok).toBe(false);
    expect(result.observation).toContain('does not compile, so nothing was saved');
    expect(result.observation).toContain('SyntaxError');
    expect(result.observation).toContain('+def train(epochs)');
    expect((await context.workspace.list()).map((entry) => entry.path)).not.toContain('impl.py');
  });

  it('refuses a read-only save_name before asking the model, and an answer without code', async () => {
    const { context, model } = await start(['I would rather not.', 'No.']);
    const onto = await invokeAction(
      'Edit Script',
      { script_name: 'starter_code.py', edit_instruction: 'x', save_name: 'starter_code.py' },
      context,
    );
    expect(onto.observation).toContain('starter_code.py is a task input and read-only');
    expect(onto.observation).toContain('methodology_implementation.py');
    expect(model.requests).toHaveLength(0);
    const noCode = await invokeAction(
      'Edit Script',
      { script_name: 'starter_code.py', edit_instruction: 'x', save_name: 'impl.py' },
      context,
    );
    expect(noCode.observation).toContain(
      "the editor's answer could not be applied (the answer holds neither edit blocks nor a ```python block with the whole file), so nothing was saved. Its answer began: No.",
    );
    const range = await invokeAction(
      'Edit Script',
      {
        script_name: 'starter_code.py',
        edit_instruction: 'x',
        save_name: 'impl.py',
        start_line_number: 30,
      },
      context,
    );
    expect(range.observation).toContain('starter_code.py has 12 lines');
    const missingField = await invokeAction(
      'Edit Script',
      { script_name: 'starter_code.py', edit_instruction: 'x' },
      context,
    );
    expect(missingField.observation).toContain('save_name');
    expect(missingField.observation).toContain('Usage: Action: Edit Script');
    expect(model.requests).toHaveLength(2);
  });
});

describe('Edit Script with Context', () => {
  it('shows the context files to the editor and saves the edit', async () => {
    const edited = `from utils import helper\n${starterCode}`;
    const { context, model } = await start([fence(edited)], {
      'utils.py': 'def helper():\n    return 42\n',
    });
    const result = await invokeAction(
      'Edit Script with Context',
      {
        script_name: 'starter_code.py',
        edit_instruction: 'Import helper.',
        save_name: 'impl.py',
        context_files: ['utils.py'],
      },
      context,
    );
    expect(result.ok, result.observation).toBe(true);
    expect(model.sent(0)).toContain('Context file utils.py (line numbers added):');
    expect(model.requests[0]?.system).toContain('context files');
    expect(await context.workspace.read('impl.py')).toBe(edited);
  });
});

describe('Reflection', () => {
  it('reflects over the research log with the worker', async () => {
    const { context, model } = await start(['Try more epochs.']);
    const result = await invokeAction(
      'Reflection',
      { things_to_reflect_on: 'progress so far' },
      context,
    );
    expect(result.observation).toBe('Reflection:\nTry more epochs.');
    expect(model.requests[0]?.role).toBe('worker');
    expect(model.sent(0)).toContain('Research log so far:\nStep 1: listed files.');
    expect(model.sent(0)).toContain('Reflect on:\nprogress so far');
  });
});

describe('Check Implementation', () => {
  const valid = JSON.stringify({
    subparts: [
      { name: 'training loop', implemented: true, lines: '6-7', evidence: 'loops over epochs' },
      {
        name: 'more epochs',
        implemented: false,
        lines: null,
        evidence: 'train(3) is called with 3 epochs',
        code_to_change: 'line 12',
        proposed_edit: 'call train(30)',
      },
    ],
  });

  it('renders each sub-part: where it is implemented, or what to change', async () => {
    const { context, model } = await start([`\`\`\`json\n${valid}\n\`\`\``]);
    const result = await invokeAction(
      'Check Implementation',
      { script_name: 'starter_code.py' },
      context,
    );
    expect(result.observation).toBe(
      [
        'Implementation check of starter_code.py: 1 of 2 sub-parts implemented.',
        '1. training loop: implemented at lines 6-7. loops over epochs',
        '2. more epochs: NOT implemented. train(3) is called with 3 epochs Change: line 12. Proposed edit: call train(30)',
      ].join('\n'),
    );
    expect(model.sent(0)).toContain('Methodology:\nTrain for more epochs');
    expect(model.sent(0)).toContain('12:     print(f"accuracy: {train(3):.2f}")');
    // checking the starter itself: there is nothing to compare it with
    expect(model.sent(0)).toContain('starter_code.py with line numbers (the starter code itself)');
  });

  it('marks the changes against the starter in the listing (each line once), and shows imported workspace modules', async () => {
    const { context, model } = await start([
      `\`\`\`json
${valid}
\`\`\``,
    ]);
    const starter = await context.workspace.read('starter_code.py');
    await context.workspace.write('helpers.py', 'def twice(x):\n    return 2 * x\n', 'edit');
    await context.workspace.write(
      'methodology_implementation.py',
      `import helpers\n${starter.replace('train(3)', 'train(30)')}`,
      'edit',
    );
    await invokeAction(
      'Check Implementation',
      { script_name: 'methodology_implementation.py' },
      context,
    );
    const sent = model.sent(0);
    expect(sent).toContain(
      'methodology_implementation.py with line numbers, new or changed lines against the starter code marked +',
    );
    expect(sent).toMatch(/\+ +1: import helpers/);
    expect(sent).toMatch(/\+ +13: {5}print\(f"accuracy: \{train\(30\):\.2f\}"\)/);
    expect(sent).toContain('2 new or changed lines marked +; 1 starter lines removed:');
    expect(sent).toContain('-     print(f"accuracy: {train(3):.2f}")');
    // the starter's unchanged lines are not repeated in a diff
    expect(sent.split('def train').length).toBe(2);
    expect(sent).toContain('helpers.py, which methodology_implementation.py imports');
    expect(sent).toContain('2:     return 2 * x');
    expect(model.requests[0]?.system).toContain('Data pipeline and evaluation kept');
  });

  it('re-asks once with the validation problem, then gives up with an observation', async () => {
    const { context, model } = await start([
      '{"subparts": [{"name": "loop"}]}',
      valid,
      'no json here',
      'still none',
    ]);
    const second = await invokeAction(
      'Check Implementation',
      { script_name: 'starter_code.py', methodology_part: 'the training loop' },
      context,
    );
    expect(second.ok).toBe(true);
    expect(model.sent(1)).toContain('subparts.0.implemented');
    expect(model.requests[1]?.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
    ]);
    expect(model.sent(0)).toContain('Methodology part to check:\nthe training loop');
    const failed = await invokeAction(
      'Check Implementation',
      { script_name: 'starter_code.py' },
      context,
    );
    expect(failed.ok).toBe(false);
    expect(failed.observation).toContain(
      'no usable answer twice (last problem: it holds no JSON object)',
    );
    expect(model.remaining).toBe(0);
  });
});
