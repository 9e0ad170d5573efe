import { describe, expect, it } from 'vitest';
import type { StepRecord } from './checkpoint.js';
import { plannerPrompt, shownInstructionChars } from './planner-prompt.js';

const instruction = `Implement the method: ${'add the helper and call it. '.repeat(30)}`.trim();

function editStep(editInstruction: string): StepRecord {
  const input = {
    script_name: 'starter_code.py',
    edit_instruction: editInstruction,
    save_name: 'methodology_implementation.py',
  };
  return {
    step: 1,
    answer: `Reflection: first step.\nThought: write it in one edit.\nAction: Edit Script\nAction Input: ${JSON.stringify(input, null, 2)}`,
    action: 'Edit Script',
    input,
    observation: 'Saved methodology_implementation.py (version 1). The diff:\n+def helper(): ...',
  };
}

function stepsBlock(record: StepRecord): string {
  const { blocks } = plannerPrompt({
    step: 2,
    problem: 'the problem',
    actions: [],
    researchLog: [],
    recentSteps: [record],
    shortTermSteps: 3,
    budgets: [],
    notes: [],
    comment: null,
  });
  // the research log is empty, so the steps in full are the only block
  expect(blocks).toHaveLength(1);
  return (blocks[0] ?? []).join('\n');
}

describe('a step shown again to the planner', () => {
  it('leaves out a long edit instruction, since the diff in its observation shows the edit', () => {
    expect(instruction.length).toBeGreaterThan(shownInstructionChars);
    const shown = stepsBlock(editStep(instruction));
    expect(shown).not.toContain('add the helper and call it');
    expect(shown).toContain(
      `"edit_instruction":"(${instruction.length} characters, not repeated here: the diff in the observation shows what the edit did)"`,
    );
    expect(shown).toContain('"save_name":"methodology_implementation.py"');
    expect(shown).toContain('Thought: write it in one edit.');
    expect(shown).toContain('+def helper(): ...');
  });

  it('keeps a short instruction as the planner wrote it', () => {
    const record = editStep('Rename x to y.');
    expect(stepsBlock(record)).toContain(record.answer);
  });
});
