// Asking for an answer that fits a schema is a service every pipeline uses (and the grading
// room, which may not import a pipeline); it lives in src/llm. This keeps the old path.
export * from '../llm/structured-answer.js';
