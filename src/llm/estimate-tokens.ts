/** A rough token count for text no tokenizer has seen: about four characters a token. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);
