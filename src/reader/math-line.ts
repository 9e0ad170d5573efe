/**
 * Whether a line of extracted text is a display equation rather than prose: LaTeX commands
 * or math symbols with few ordinary words. Best effort, for PDF and plain-text papers,
 * where equations arrive as lines of text.
 */
export function looksMathematical(line: string): boolean {
  const text = line.trim();
  if (text.length < 3 || text.length > 400) return false;
  const tokens = text.split(/\s+/);
  const words = tokens.filter((token) => /^\(?[A-Za-z][a-z]+[.,;:)]?$/.test(token)).length;
  const ratio = words / tokens.length;
  const commands = text.match(/\\[a-zA-Z]+/g)?.length ?? 0;
  const symbols = text.match(/[=<>≤≥∈∼≈±×·∑∏∫√∂∇^_{}]/g)?.length ?? 0;
  if (commands > 0 && ratio < 0.3) return true;
  return symbols >= 2 && ratio < 0.2 && /[=<>≤≥≈∈∼]/.test(text);
}
