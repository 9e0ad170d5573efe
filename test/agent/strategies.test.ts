import { describe, expect, it } from 'vitest';
import { allActions } from '../../src/agent/actions/index.js';
import { runImplement } from '../../src/agent/implement.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { skeletonSubparts, subpartSource } from '../../src/agent/strategies/prescribed-plan.js';
import type { CodifyEvent } from '../../src/runs/events.js';
import { scriptedCaller } from './scripted-caller.js';
import { betterCode, makeTask, starterCode } from './task-fixture.js';

const skeleton = starterCode.replace(
  'def train():',
  '# SUBPART 1: add subpart_one\ndef subpart_one():\n    return 0.0\n\ndef train():',
);
const implemented = betterCode.replace(
  'def subpart_one():',
  '# SUBPART 1: add subpart_one\ndef subpart_one():',
);

describe('baseline strategies', () => {
  it('prescribed-plan runs the fixed sequence of actions without a planner', async () => {
    const { taskDir, runsRoot } = makeTask();
    // A helper module too long to read whole: the one file Understand File reads.
    const helper = Array.from({ length: 120 }, (_, index) => `VALUE_${index} = ${index}`);
    writeFileSync(join(taskDir, 'helpers.py'), `${helper.join('\n')}\n`);
    let edits = 0;
    const models = scriptedCaller({
      planner: () => {
        throw new Error('the prescribed plan has no planner');
      },
      other: (request) => {
        if (request.label === 'edit-script') {
          edits += 1;
          return `\`\`\`python\n${edits === 1 ? skeleton : implemented}\`\`\``;
        }
        return 'The file defines train() and prints the accuracy.';
      },
    });
    const events: CodifyEvent[] = [];
    const result = await runImplement({
      taskDir,
      runsRoot,
      models,
      strategy: 'prescribed-plan',
      sandbox: 'none',
      python: '/usr/bin/python3',
      actions: allActions,
      sinks: [(event) => events.push(event)],
    });
    const actions = events.flatMap((event) =>
      event.type === 'action-start' ? [event.action] : [],
    );
    expect(actions[0]).toBe('List Files');
    // The skeleton's edit shows the starter and the methodology itself: neither is read
    // first. starter_code_performance.txt and task.json are short, read whole without a
    // model call; helpers.py is not.
    expect(actions.slice(1, 5)).toEqual([
      'Understand File',
      'Inspect Script Lines',
      'Inspect Script Lines',
      'Edit Script',
    ]);
    expect(actions.slice(-5)).toEqual([
      'Edit Script',
      'Edit Script',
      'Check Implementation',
      'Execute Script',
      'Final Answer',
    ]);
    expect(models.requests.some((request) => request.role === 'planner')).toBe(false);
    expect(result).toMatchObject({ strategy: 'prescribed-plan', outcome: 'completed', ran: true });
    expect(result.metric?.value).toBe(0.9);
    expect(result.execution).toMatchObject({ runs: 1, exitCode: 0 });
    // the sub-part edit sees its own sub-part, as the skeleton wrote it, not the whole method
    const edit = models.requests.filter((request) => request.label === 'edit-script');
    const methodology = readFileSync(join(taskDir, 'methodology_description.txt'), 'utf8').trim();
    const skeletonEdit = edit[0]?.messages[0]?.content ?? '';
    expect(skeletonEdit.split(methodology).length).toBe(2);
    const subpartEdit = edit[1]?.messages[0]?.content ?? '';
    expect(subpartEdit).not.toContain(methodology);
    expect(subpartEdit).toContain('The part of the method this edit implements');
    expect(subpartEdit).toContain(
      '# SUBPART 1: add subpart_one\ndef subpart_one():\n    return 0.0',
    );
    // The skeleton's edit gets the short file whole, the long one as what it was asked of a
    // code file, and neither the starter nor the methodology a second time.
    expect(skeletonEdit).toContain('task.json (1 line):\n```json\n{"name":"toy"');
    expect(skeletonEdit).toContain(
      'starter_code_performance.txt (1 line):\n```text\naccuracy: 0.5\n```',
    );
    expect(skeletonEdit).toContain('helpers.py: ');
    expect(skeletonEdit.split('def train():').length).toBe(2);
    const reads = models.requests.filter(
      (request) => request.label?.startsWith('understand-file') === true,
    );
    expect(reads).toHaveLength(1);
    const asked = reads.map((request) =>
      [request.system ?? '', ...request.messages.map((message) => message.content)].join('\n'),
    );
    expect(asked[0]).toContain('helpers.py');
    expect(asked[0]).toContain('how it loads and splits the data');
  });

  it('takes a sub-part as the skeleton wrote it, up to the next top-level statement', () => {
    const script =
      'import x\n\n# SUBPART 1: first\ndef one(a):\n    """Do A."""\n\n    return a\n\nVALUE = 1\n# SUBPART 2: second\ndef two():\n    return 2\n';
    expect(subpartSource(script, 1)).toBe(
      '# SUBPART 1: first\ndef one(a):\n    """Do A."""\n\n    return a',
    );
    expect(subpartSource(script, 2)).toBe('# SUBPART 2: second\ndef two():\n    return 2');
    expect(subpartSource(script, 3)).toBeUndefined();
    // A signature over several lines closes at the margin; a docstring may hold brackets.
    const wrapped = [
      '# SUBPART 1: noise',
      'def noise_half(',
      '    half: torch.Tensor,',
      '    generator: torch.Generator,',
      ') -> torch.Tensor:',
      '    """Replace every pixel (of the half) by N(mu, sigma^2).',
      '',
      'A line at the margin inside the docstring: (unbalanced',
      '    """',
      '    return half',
      '',
      'def train(model):',
      '    pass',
    ];
    expect(subpartSource(wrapped.join('\n'), 1)).toBe(wrapped.slice(0, 10).join('\n'));
  });

  it("single-call writes the answer's code block as the script, then runs and measures it", async () => {
    const { taskDir, runsRoot } = makeTask();
    let sent = '';
    const answered = scriptedCaller({
      planner: () => {
        throw new Error('single-call asks no planner steps');
      },
      other: (request) => {
        expect(request.label).toBe('single call');
        const prompt = request.messages[0]?.content ?? '';
        sent = prompt;
        return `Here is the script.\n\`\`\`python\n${betterCode}\`\`\`\nIt adds subpart_one.`;
      },
    });
    const result = await runImplement({
      taskDir,
      runsRoot,
      models: answered,
      strategy: 'single-call',
      sandbox: 'none',
      python: '/usr/bin/python3',
    });
    expect(result).toMatchObject({
      strategy: 'single-call',
      outcome: 'completed',
      ran: true,
      steps: 1,
    });
    expect(result.metric).toMatchObject({ value: 0.9, starter: 0.5, improved: true });
    expect(result.linesEdited).toEqual({ added: 4, removed: 1 });
    expect(answered.requests).toHaveLength(1);
    // each input file once: the statement shows the method and the starter, not a file list again
    expect(sent).toContain('## The starter code: `starter_code.py`');
    expect(sent).not.toContain('## starter_code.py');
    expect(sent).not.toContain('## methodology_description.txt');
    expect(sent.split('def train').length).toBe(2);
    // and asks for what single-call can give: one answer, no actions
    expect(sent).toContain('You have this one answer and no actions');
    for (const action of ['Copy File', 'Edit Script', 'Execute Script', 'final answer']) {
      expect(sent).not.toContain(action);
    }
  });

  it('finds the sub-parts a skeleton marks', () => {
    expect(skeletonSubparts('x\n# SUBPART 1: load\n  #  subpart 2 : train\n')).toEqual([
      { index: 1, title: 'load' },
      { index: 2, title: 'train' },
    ]);
  });
});
